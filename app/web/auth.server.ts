import type { Caller } from "~/infra/api-entry.server";
import type { Cookie } from "@remix-run/node";
import type { UserRow } from "#db/schema";
import { getConfig } from "~/infra/config.server";
import type { Config } from "~/infra/config.server";
import { appCookie } from "~/web/cookie.server";
import { reportRead } from "~/web/render-report.server";
import { getDb } from "~/infra/db.server";
import { unauthorized } from "~/infra/errors.server";
import { userForApiToken, userForWebSession } from "~/features/accounts/sessions/sessions.server";

/**
 * The web session cookie carries only the random session secret (signed). In
 * production it is `__Host-session` (app/web/cookie.server.ts), elsewhere
 * `__session`.
 */
export function createSessionCookie(
  config: Pick<Config, "isProduction" | "appSecret" | "SESSION_DAYS">,
) {
  return appCookie("session", { maxAge: config.SESSION_DAYS * 24 * 60 * 60 }, config);
}

let cookie: Cookie | undefined;
let cookieConfig: Config | undefined;
export function sessionCookie() {
  const config = getConfig();
  if (!cookie || cookieConfig !== config) {
    cookieConfig = config;
    cookie = createSessionCookie(config);
  }
  return cookie;
}

/** The session secret the request's (signed) session cookie carries; the render is told whether there was one. */
export async function readSessionSecret(request: Request): Promise<string | null> {
  const value = await sessionCookie().parse(request.headers.get("Cookie"));
  const secret = typeof value === "string" && value.length > 0 ? value : null;
  reportRead("session", secret !== null);
  return secret;
}

/** Who is calling (the type lives in the procedure kit, beside the /api entry that names it). */
export type { Caller } from "~/infra/api-entry.server";

/**
 * Who is calling: a bearer token wins over the cookie. A bearer header that is
 * present but not valid is a 401 even when a cookie is also sent.
 */
export async function resolveCaller(
  request: Request,
  options: { bearer: boolean },
): Promise<Caller> {
  const db = getDb();
  if (options.bearer && request.headers.has("Authorization")) {
    const token = bearerTokenOf(request);
    const user = token ? await userForApiToken(db, token) : undefined;
    if (!user) throw unauthorized("Invalid or expired token");
    return { user, via: "bearer", token: token! };
  }
  const secret = await readSessionSecret(request);
  if (!secret) return { user: null, via: null };
  const user = await userForWebSession(db, secret, new Date(), getConfig().SESSION_IDLE_DAYS);
  return user ? { user, via: "cookie", sessionSecret: secret } : { user: null, via: null };
}

/** The signed-in user of a screen request (cookie only), or null. */
export async function getWebUser(request: Request): Promise<UserRow | null> {
  return (await resolveCaller(request, { bearer: false })).user;
}

/** The token of an `Authorization: Bearer <token>` header, if well formed. */
export function bearerTokenOf(request: Request): string | null {
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,512})\s*$/i.exec(
    request.headers.get("Authorization") ?? "",
  );
  return match ? match[1] : null;
}
