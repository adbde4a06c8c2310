import type { ApiCall } from "~/web/api-router.server";
import { getWebUser } from "~/web/auth.server";
import { attemptProcedure } from "~/web/screen-action.server";
import { redirectWithFlash } from "~/web/flash.server";
import { completeOAuthConnection } from "~/features/publishing/procedures/integrations.server";
import { OAuthCallbackError } from "~/features/publishing/lends.server";
import { oauthResultPage } from "~/routes/api+/oauth-result-page.server";
import { findPlatform } from "~/features/publishing/platforms";
import { COPY, connectFailedText } from "~/features/publishing/types";

/**
 * GET /api/oauth/{platform}/callback: where the provider sends the creator back.
 * In the popup it answers a small page that tells the opener and closes
 * itself; without JavaScript (a plain link) it redirects to /integrations with
 * a flash message.
 */
export async function oauthCallback({ request, params, context }: ApiCall): Promise<Response> {
  const platformId = params.platform ?? "";
  const name = findPlatform(platformId)?.name ?? "the platform";
  const user = await getWebUser(request);
  if (!user) return failedConnection(name);
  let outcome;
  try {
    outcome = await attemptProcedure(
      completeOAuthConnection,
      { request, context, params },
      { platform: platformId, query: new URL(request.url).searchParams },
      user,
    );
  } catch (error) {
    if (!(error instanceof OAuthCallbackError)) throw error;
    if (error.display === "popup") {
      return oauthResultPage({
        ok: false,
        platform: platformId,
        title: COPY.connectionFailed.title,
        description: error.message,
        nonce: context.nonce,
      });
    }
    return redirectWithFlash("/integrations", {
      kind: "error",
      ...COPY.connectionFailed,
      description: error.message,
    });
  }
  if (!outcome.ok) {
    // A query the procedure refuses outright (say, a platform id far too long) is a failed connection too, not a 500.
    if (outcome.refusal.status >= 500) throw outcome.refusal.error;
    return failedConnection(name);
  }
  const description = `${name} is connected.`;
  if (outcome.result.display === "popup") {
    return oauthResultPage({
      ok: true,
      platform: platformId,
      title: COPY.connectionComplete.title,
      description,
      nonce: context.nonce,
    });
  }
  return redirectWithFlash("/integrations", {
    kind: "success",
    ...COPY.connectionComplete,
    description,
  });
}

/** The connection failed for a reason the creator cannot act on here: back to Integrations with the failure. */
function failedConnection(name: string) {
  return redirectWithFlash("/integrations", {
    kind: "error",
    ...COPY.connectionFailed,
    description: connectFailedText(name),
  });
}
