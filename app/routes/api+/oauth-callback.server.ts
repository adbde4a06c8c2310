import type { ApiCall } from "~/web/api-router.server";
import { getWebUser } from "~/web/auth.server";
import { attemptProcedure } from "~/web/screen-action.server";
import { redirectWithFlash } from "~/web/flash.server";
import { completeOAuthConnection } from "~/features/publishing/integrations/procedures.server";
import { OAuthCallbackError } from "~/features/publishing/public.server";
import { oauthResultPage } from "~/routes/api+/oauth-result-page.server";
import { findPlatform } from "~/features/publishing/platforms";
import { COPY, connectFailedText } from "~/features/publishing/types";
import { keepShopifyInstallation } from "~/features/publishing/shopify/installs.procedures.server";
import {
  clearInstallStateHeader,
  installClaimHeader,
  readInstallState,
} from "~/web/shopify-install-cookies.server";

/**
 * GET /api/oauth/{platform}/callback: where the provider sends the creator back.
 * In the popup it answers a small page that tells the opener and closes
 * itself; without JavaScript (a plain link) it redirects to /integrations with
 * a flash message. The callback of an install from a store's Shopify admin
 * that nobody was signed in for (its state is the one in this browser's
 * cookie) keeps the grant and sends the browser to claim it.
 */
export async function oauthCallback({ request, params, context }: ApiCall): Promise<Response> {
  const platformId = params.platform ?? "";
  const name = findPlatform(platformId)?.name ?? "the platform";
  if (platformId === "shopify") {
    const browserState = await readInstallState(request);
    if (browserState && new URL(request.url).searchParams.get("state") === browserState)
      return keepInstallGrant({ request, params, context }, browserState);
  }
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

/**
 * An install's callback: the grant is kept for an hour, the browser gets its
 * claim token, and goes to the page that claims it (sign-in first, if need
 * be). The install's state cookie is spent either way.
 */
async function keepInstallGrant(
  { request, params, context }: Pick<ApiCall, "request" | "params" | "context">,
  browserState: string,
): Promise<Response> {
  const headers = new Headers({ "Set-Cookie": await clearInstallStateHeader() });
  let outcome;
  try {
    outcome = await attemptProcedure(
      keepShopifyInstallation,
      { request, context, params },
      { query: new URL(request.url).searchParams, browserState },
      null,
    );
  } catch (error) {
    if (!(error instanceof OAuthCallbackError)) throw error;
    return redirectWithFlash(
      "/integrations",
      { kind: "error", ...COPY.connectionFailed, description: error.message },
      headers,
    );
  }
  if (!outcome.ok) {
    if (outcome.refusal.status >= 500) throw outcome.refusal.error;
    return redirectWithFlash(
      "/integrations",
      { kind: "error", ...COPY.connectionFailed, description: connectFailedText("Shopify") },
      headers,
    );
  }
  headers.append("Set-Cookie", await installClaimHeader(outcome.result.claimToken));
  headers.set("Location", "/integrations/shopify-install");
  headers.set("Cache-Control", "no-store");
  return new Response(null, { status: 302, headers });
}

/** The connection failed for a reason the creator cannot act on here: back to Integrations with the failure. */
function failedConnection(name: string) {
  return redirectWithFlash("/integrations", {
    kind: "error",
    ...COPY.connectionFailed,
    description: connectFailedText(name),
  });
}
