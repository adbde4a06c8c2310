import type { Config } from "~/infra/config.server";

/**
 * The origin the server is configured to be reached at: PUBLIC_URL's origin;
 * outside production, without PUBLIC_URL, http://localhost:PORT (where
 * `npm start` and `npm run dev` serve); null when there is none (production
 * without PUBLIC_URL, which the configuration refuses at start).
 *
 * Links that leave the request (mail: reset links, library links, receipts,
 * sale notices) are built only from it: the request's own Host and
 * X-Forwarded-Host are written by the client, so an origin taken from them
 * could point a victim's mail at anyone's server.
 */
export function configuredOrigin(
  config: Pick<Config, "PUBLIC_URL" | "PORT" | "isProduction">,
): string | null {
  if (config.PUBLIC_URL) return new URL(config.PUBLIC_URL).origin;
  return config.isProduction ? null : `http://localhost:${config.PORT}`;
}

/**
 * The origin for the links of one mail, or null, logging that `what` is not
 * sent: without a configured origin a mail whose point is its link is not
 * sent at all.
 */
export function mailLinkOrigin(
  config: Pick<Config, "PUBLIC_URL" | "PORT" | "isProduction">,
  what: string,
): string | null {
  const origin = configuredOrigin(config);
  if (!origin)
    console.warn(
      `${what} not sent: links in mail need the server's public address; set PUBLIC_URL (such as https://selfie.example).`,
    );
  return origin;
}
