import type { Config } from "~/server/config.server";

/**
 * The absolute origin for links that leave the page (Stripe's return URLs,
 * download links in JSON answers): PUBLIC_URL when set, else the request's own.
 */
export function publicOrigin(config: Pick<Config, "PUBLIC_URL">, request: Request): string {
  if (config.PUBLIC_URL) return new URL(config.PUBLIC_URL).origin;
  return new URL(request.url).origin;
}
