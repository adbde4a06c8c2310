import type { Cookie } from "@remix-run/node";
import { getConfig } from "~/infra/config.server";
import { appCookie } from "~/web/cookie.server";

/**
 * The two cookies of an install from a store's Shopify admin made while
 * nobody is signed in here (app/features/publishing/shopify/shopify-installs.server.ts):
 * the OAuth state the install sent to Shopify, so only the browser that
 * started it can finish it (ten minutes); then the claim token of the access
 * Shopify granted, so only that browser's creator can claim it (an hour).
 * Both signed, HttpOnly, SameSite=Lax (Shopify sends the merchant back with a
 * top-level GET, which carries them).
 */

const STATE_SECONDS = 10 * 60;
const CLAIM_SECONDS = 60 * 60;
const VALUE = /^[A-Za-z0-9_-]{16,200}$/;

let cached: { secret: string; state: Cookie; claim: Cookie } | undefined;
function cookies() {
  const config = getConfig();
  if (!cached || cached.secret !== config.appSecret) {
    cached = {
      secret: config.appSecret,
      // `__Host-shopify-install` and `__Host-shopify-claim` in production.
      state: appCookie("shopify-install", { maxAge: STATE_SECONDS }, config),
      claim: appCookie("shopify-claim", { maxAge: CLAIM_SECONDS }, config),
    };
  }
  return cached;
}

async function read(cookie: Cookie, request: Request): Promise<string | null> {
  const value: unknown = await cookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" && VALUE.test(value) ? value : null;
}

export const readInstallState = (request: Request) => read(cookies().state, request);

export const installStateHeader = (state: string) => cookies().state.serialize(state);

export const clearInstallStateHeader = () => cookies().state.serialize("", { maxAge: 0 });

export const readInstallClaim = (request: Request) => read(cookies().claim, request);

export const installClaimHeader = (claimToken: string) => cookies().claim.serialize(claimToken);

export const clearInstallClaimHeader = () => cookies().claim.serialize("", { maxAge: 0 });
