import type { ApiCall } from "~/web/api-router.server";
import { getWebUser } from "~/web/auth.server";
import { callContext } from "~/web/request-context.server";
import { HttpError } from "~/infra/errors.server";
import { redirectWithFlash } from "~/web/flash.server";
import { invoke } from "~/infra/procedure.server";
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
  if (!user) {
    return redirectWithFlash("/integrations", { kind: "error", ...COPY.connectionFailed, description: connectFailedText(name) });
  }
  try {
    const done = await invoke(
      completeOAuthConnection,
      user,
      { platform: platformId, query: new URL(request.url).searchParams },
      callContext(request, context),
    );
    const description = `${name} is connected.`;
    if (done.display === "popup") {
      return oauthResultPage({ ok: true, platform: platformId, title: COPY.connectionComplete.title, description, nonce: context.nonce });
    }
    return redirectWithFlash("/integrations", { kind: "success", ...COPY.connectionComplete, description });
  } catch (error) {
    // A query the procedure refuses outright (say, a platform id far too long) is a failed connection too, not a 500.
    if (error instanceof HttpError && error.status < 500) {
      return redirectWithFlash("/integrations", { kind: "error", ...COPY.connectionFailed, description: connectFailedText(name) });
    }
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
    return redirectWithFlash("/integrations", { kind: "error", ...COPY.connectionFailed, description: error.message });
  }
}
