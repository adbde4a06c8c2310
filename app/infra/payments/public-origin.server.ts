import type { Config } from "~/infra/config.server";

/**
 * The absolute origin for links answered to the caller (Stripe's return URLs,
 * download links in JSON answers): PUBLIC_URL when set, else the origin of the
 * URL the call was made at. Mail uses configuredOrigin instead
 * (app/infra/configured-origin.server.ts).
 */
export function publicOrigin(config: Pick<Config, "PUBLIC_URL">, madeAt: string | URL): string {
  if (config.PUBLIC_URL) return new URL(config.PUBLIC_URL).origin;
  return new URL(madeAt).origin;
}
