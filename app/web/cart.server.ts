import type { Cookie } from "@remix-run/node";
import { MAX_CART_ITEMS } from "~/lib/limits";
import { getConfig } from "~/infra/config.server";
import { appCookie } from "~/web/cookie.server";
import { reportRead } from "~/web/render-report.server";
import { CART_ENTRY_PATTERN, listingOfEntry } from "~/lib/cart-entries";

/**
 * The cart lives in a signed cookie (listing ids, `<id>:extended` or
 * `<id>:exclusive` for a licence tier, and `bundle:<id>` for a bundle; never
 * prices: cart-entries.ts), so it
 * works without JavaScript, survives reloads and needs no account. Prices are
 * read from the database whenever the cart is shown or paid.
 */
const CART_DAYS = 30;
export { CART_ENTRY_PATTERN };
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

/**
 * The cart with one more image; a full cart stays as it is (the caller says
 * so). A listing is in the cart once: adding it with another licence tier
 * replaces its entry in place.
 */
export function addToCart(ids: string[], entry: string): string[] {
  if (ids.includes(entry)) return ids;
  const listingId = listingOfEntry(entry);
  const same = listingId === null ? -1 : ids.findIndex((id) => listingOfEntry(id) === listingId);
  if (same >= 0) return ids.map((id, index) => (index === same ? entry : id));
  if (ids.length >= MAX_CART_ITEMS) return ids;
  return [...ids, entry];
}

/** The cart without an entry; a listing's id removes it whatever tier its entry names. */
export function removeFromCart(ids: string[], entry: string): string[] {
  const listingId = listingOfEntry(entry);
  return ids.filter(
    (id) => id !== entry && (listingId === null || listingOfEntry(id) !== listingId),
  );
}
