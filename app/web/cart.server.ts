import type { Cookie } from "@remix-run/node";
import { MAX_CART_ITEMS } from "~/lib/limits";
import { getConfig } from "~/infra/config.server";
import { appCookie } from "~/web/cookie.server";
import { reportRead } from "~/web/render-report.server";

/**
 * The cart lives in a signed cookie (listing ids, and `bundle:<id>` for a
 * bundle; never prices), so it
 * works without JavaScript, survives reloads and needs no account. Prices are
 * read from the database whenever the cart is shown or paid.
 */
const CART_DAYS = 30;
/** A listing's id, or a bundle's as `bundle:<id>`. */
export const CART_ENTRY_PATTERN = /^(bundle:)?[A-Za-z0-9_-]{1,64}$/;
const ID_PATTERN = CART_ENTRY_PATTERN;

let cookie: Cookie | undefined;
let cookieSecret: string | undefined;
function cartCookie() {
  const config = getConfig();
  if (!cookie || cookieSecret !== config.appSecret) {
    cookieSecret = config.appSecret;
    // `__Host-cart` in production, `__cart` elsewhere.
    cookie = appCookie("cart", { maxAge: CART_DAYS * 24 * 60 * 60 }, config);
  }
  return cookie;
}

export async function readCart(request: Request): Promise<string[]> {
  const value: unknown = await cartCookie().parse(request.headers.get("Cookie"));
  // Any signed cart, even an empty one, makes the page this visitor's own.
  reportRead("cart", value !== null);
  if (!Array.isArray(value)) return [];
  return [
    ...new Set(value.filter((id): id is string => typeof id === "string" && ID_PATTERN.test(id))),
  ].slice(0, MAX_CART_ITEMS);
}

/** The Set-Cookie header for a cart (an empty cart clears the cookie). */
export async function cartHeader(ids: string[]): Promise<string> {
  const clean = [...new Set(ids.filter((id) => ID_PATTERN.test(id)))].slice(0, MAX_CART_ITEMS);
  if (clean.length === 0) return cartCookie().serialize([], { maxAge: 0 });
  return cartCookie().serialize(clean);
}

/** The cart with one more image; a full cart stays as it is (the caller says so). */
export function addToCart(ids: string[], listingId: string): string[] {
  if (ids.includes(listingId) || ids.length >= MAX_CART_ITEMS) return ids;
  return [...ids, listingId];
}

export function removeFromCart(ids: string[], listingId: string): string[] {
  return ids.filter((id) => id !== listingId);
}
