import { parse } from "cookie";

/**
 * The request's cookies as the app's own cookies read them: the `cookie`
 * parser Remix's cookies use, so a decision made here (visitor or not,
 * signed in or not) sees exactly the names the session, cart and flash
 * readers see. That parser trims blanks and tabs around a name
 * (`__session =x` is `__session`), keeps the first of duplicated names and
 * compares names case-sensitively.
 */
export function requestCookieNames(request: Request): string[] {
  return cookieNamesOf(request.headers.get("Cookie"));
}

/** The names in a Cookie header, as `requestCookieNames` reads them. */
export function cookieNamesOf(header: string | null | undefined): string[] {
  return header ? Object.keys(parse(header)) : [];
}

/** Whether a Cookie header carries one of the app's own cookies (session, cart, flash): they all start with `__` (`__Host-` in production). */
export function carriesAppCookie(cookieHeader: string | null | undefined): boolean {
  return cookieNamesOf(cookieHeader).some((name) => name.startsWith("__"));
}

/** Session cookie names: `__Host-session` in production, `__session` elsewhere (app/web/auth.server.ts). */
const SESSION_COOKIE_NAMES = new Set(["__Host-session", "__session"]);

/** Whether the request carries a session cookie by either of its names (signed or not). */
export function carriesSessionCookie(request: Request): boolean {
  return requestCookieNames(request).some((name) => SESSION_COOKIE_NAMES.has(name));
}
