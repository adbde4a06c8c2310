import { createCookie } from "@remix-run/node";
import type { Cookie } from "@remix-run/node";
import { getConfig } from "~/infra/config.server";
import type { Config } from "~/infra/config.server";

/**
 * A signed cookie of the app: HttpOnly, SameSite=Lax, Path=/, signed with the
 * app secret. In production it is Secure and named `__Host-<name>`, so the
 * browser accepts it only when it is Secure, for Path=/ and without a Domain,
 * and no subdomain can set or shadow it; elsewhere it is `__<name>`.
 * (Chromium treats http://localhost as secure, so `__Host-` works there too.)
 */
export function appCookie(
  name: string,
  options: { maxAge: number },
  config: Pick<Config, "isProduction" | "appSecret"> = getConfig(),
): Cookie {
  return createCookie(config.isProduction ? `__Host-${name}` : `__${name}`, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.isProduction,
    path: "/",
    secrets: [config.appSecret],
    maxAge: options.maxAge,
  });
}
