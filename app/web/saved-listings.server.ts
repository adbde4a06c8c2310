import type { Cookie } from "@remix-run/node";
import { MAX_SAVED_LISTINGS } from "~/lib/limits";
import { getConfig } from "~/infra/config.server";
import { appCookie } from "~/web/cookie.server";
import { reportRead } from "~/web/render-report.server";

/**
 * The listings a buyer saved live in a signed cookie, as the cart does
 * (decision 090): listing ids only, newest first, at most
 * MAX_SAVED_LISTINGS, no account. What each one is now (its title, its
 * price, whether it is still for sale) is read from the database whenever
 * the list is shown. A cookie whose signature does not check out is read as
 * no saved listings at all.
 */
const SAVED_DAYS = 365;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

let cookie: Cookie | undefined;
let cookieSecret: string | undefined;
function savedCookie() {
  const config = getConfig();
  if (!cookie || cookieSecret !== config.appSecret) {
    cookieSecret = config.appSecret;
    // `__Host-saved` in production, `__saved` elsewhere.
    cookie = appCookie("saved", { maxAge: SAVED_DAYS * 24 * 60 * 60 }, config);
  }
  return cookie;
}

/** Whether a listing id has the shape of one (what the cookie and the form accept). */
export function isListingId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value);
}

function clean(ids: readonly unknown[]): string[] {
  return [...new Set(ids.filter(isListingId))].slice(0, MAX_SAVED_LISTINGS);
}

/** The saved listings' ids, newest first; none for a missing, tampered or malformed cookie. */
export async function readSaved(request: Request): Promise<string[]> {
  const value: unknown = await savedCookie().parse(request.headers.get("Cookie"));
  // Any signed list, even an empty one, makes the page this visitor's own.
  reportRead("saved", value !== null);
  return Array.isArray(value) ? clean(value) : [];
}

/** The Set-Cookie header for a saved list (an empty one clears the cookie). */
export async function savedHeader(ids: readonly string[]): Promise<string> {
  const kept = clean(ids);
  if (kept.length === 0) return savedCookie().serialize([], { maxAge: 0 });
  return savedCookie().serialize(kept);
}

/**
 * The list with one more listing, in front; `full` when the list already
 * holds MAX_SAVED_LISTINGS others (then it is answered unchanged). Saving a
 * listing saved already changes nothing.
 */
export function saveListing(
  ids: readonly string[],
  listingId: string,
): { ids: readonly string[]; full: boolean } {
  if (ids.includes(listingId)) return { ids, full: false };
  if (ids.length >= MAX_SAVED_LISTINGS) return { ids, full: true };
  return { ids: [listingId, ...ids], full: false };
}

export function unsaveListing(ids: readonly string[], listingId: string): string[] {
  return ids.filter((id) => id !== listingId);
}
