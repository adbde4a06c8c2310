import type { ApiRoute } from "~/web/api-router.server";
import { loginRedirect } from "~/routes/api+/login-redirect.server";
import { oauthCallback } from "~/routes/api+/oauth-callback.server";
import { shopifyInstall } from "~/routes/api+/shopify-install.server";
import { serveOpenApiDocument } from "~/routes/api+/openapi-document.server";
import { ACCOUNTS_API } from "~/features/accounts/api.server";
import { STUDIO_API } from "~/features/studio/api.server";
import { PAYOUTS_API } from "~/features/payouts/api.server";
import { MARKET_API } from "~/features/market/api.server";
import { PUBLISHING_API } from "~/features/publishing/api.server";
import { ADMIN_API } from "~/features/admin/api.server";
import { ERASURE_API } from "~/features/erasure/api.server";
import { PRIVACY_API } from "~/features/privacy/api.server";
import { REPORTS_API } from "~/features/reports/api.server";

/**
 * Every /api endpoint: the router (app/web/api-router.server.ts, mounted by
 * the /api splat route `$.ts`) answers from this table, the OpenAPI document
 * served at GET /api/openapi.json is built from it, and the edge takes from
 * it which /api paths stream uploads and which signed webhooks skip the
 * same-origin check (read from the server build's /api route). Each feature
 * declares its own entries in `app/features/<f>/api.server.ts` (the entry's
 * type is `ApiRoute`, app/infra/api-entry.server.ts); this file puts them
 * together, feature by feature, adds the two endpoints of no feature (the
 * sign-in redirect and this document) and joins the hand-written handlers
 * that answer a page or a redirect, which need the edge and so live here.
 */

/** Entries a feature declares whose answer is written by hand beside this table. */
const HANDLERS: Readonly<Record<string, NonNullable<ApiRoute["handle"]>>> = {
  "GET /api/oauth/{platform}/callback": oauthCallback,
  "GET /api/oauth/shopify/install": shopifyInstall,
};

const LOGIN_REDIRECT: ApiRoute = {
  method: "GET",
  path: "/api/login",
  summary: "Redirect to the sign-in page, keeping a same-site redirectTo.",
  operationId: "loginRedirect",
  access: "public",
  auth: "none",
  input: "none",
  status: 302,
  answer: "redirect",
  query: [{ name: "redirectTo", description: "A same-site path to return to after signing in." }],
  handle: loginRedirect,
};

const OPENAPI_DOCUMENT: ApiRoute = {
  method: "GET",
  path: "/api/openapi.json",
  summary: "This API's OpenAPI document.",
  operationId: "openApiDocument",
  access: "public",
  auth: "bearer-or-cookie",
  input: "none",
  status: 200,
  handle: serveOpenApiDocument,
};

export const API_ROUTES: readonly ApiRoute[] = withHandlers(
  [
    ...ACCOUNTS_API,
    LOGIN_REDIRECT,
    ...STUDIO_API,
    ...PAYOUTS_API,
    ...MARKET_API,
    ...PUBLISHING_API,
    ...ADMIN_API,
    ...ERASURE_API,
    ...PRIVACY_API,
    ...REPORTS_API,
    OPENAPI_DOCUMENT,
  ],
  HANDLERS,
);

/** The entries with their hand-written handlers joined; a handler whose entry is missing fails at start. */
function withHandlers(
  entries: readonly ApiRoute[],
  handlers: Readonly<Record<string, NonNullable<ApiRoute["handle"]>>>,
): readonly ApiRoute[] {
  const unjoined = new Set(Object.keys(handlers));
  const joined = entries.map((entry) => {
    const key = `${entry.method} ${entry.path}`;
    const handle = handlers[key];
    if (!handle) return entry;
    unjoined.delete(key);
    return { ...entry, handle };
  });
  if (unjoined.size > 0)
    throw new Error(`No /api entry for the handler of ${[...unjoined].join(", ")}`);
  return joined;
}
