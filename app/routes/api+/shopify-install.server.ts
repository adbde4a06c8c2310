import { redirect } from "@remix-run/node";
import type { ApiCall } from "~/web/api-router.server";
import { getWebUser } from "~/web/auth.server";
import { attemptProcedure } from "~/web/screen-action.server";
import { redirectWithFlash } from "~/web/flash.server";
import { jsonResponse } from "~/web/http.server";
import { installStateHeader } from "~/web/shopify-install-cookies.server";
import { startShopifyInstallation } from "~/features/publishing/shopify/installs.procedures.server";

/**
 * GET /api/oauth/shopify/install, the Shopify app's App URL: where Shopify
 * sends a merchant who installs (or opens) the app from their admin. A
 * verified request goes straight to Shopify's authorize page (with nobody
 * signed in, the state rides this browser's cookie too), or to /integrations
 * for a store connected already; one that fails a check is a 400 whose
 * `message` says why (as every /api refusal), and nothing is stored.
 */
export async function shopifyInstall({ request, context, params }: ApiCall): Promise<Response> {
  const user = await getWebUser(request);
  const outcome = await attemptProcedure(
    startShopifyInstallation,
    { request, context, params },
    { query: new URL(request.url).searchParams },
    user,
  );
  if (!outcome.ok) {
    if (outcome.refusal.status >= 500) throw outcome.refusal.error;
    return jsonResponse({ message: outcome.refusal.message }, { status: outcome.refusal.status });
  }
  const start = outcome.result;
  if (start.kind === "connected") {
    return redirectWithFlash("/integrations#shopify", {
      kind: "info",
      title: "Shopify",
      description: `${start.shop} is connected to Selfie Studio.`,
    });
  }
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (start.browserState)
    headers.append("Set-Cookie", await installStateHeader(start.browserState));
  return redirect(start.url, { headers });
}
