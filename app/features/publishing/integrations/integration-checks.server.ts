import {
  throttleKey,
  type CountingContext,
  type KeyRateLimitRule,
} from "~/infra/rate-limit.server";

/**
 * Saving a Shopify token or an Adobe Stock SFTP login checks it against the
 * vendor first, and the answer (accepted or refused) is shown to the creator:
 * without a limit, an account could try password after password against
 * Adobe's SFTP server or tokens against Shopify through us. Each creator gets
 * a few such checks in a window, counted whether the check passes or not;
 * past them the save is refused (429 with Retry-After) before the vendor is
 * asked. Saves that check nothing with a vendor are not counted.
 */
export const INTEGRATION_CHECK_RATE_LIMIT: KeyRateLimitRule = {
  name: "integration-check",
  limit: 5,
  windowMs: 15 * 60 * 1000,
  message: "Too many connection checks for your account.",
};

/** Counts one vendor check for the creator, or throws 429 (with when to try again) past the limit. */
export async function countIntegrationCheck(ctx: CountingContext, userId: string): Promise<void> {
  await throttleKey(ctx, INTEGRATION_CHECK_RATE_LIMIT, userId);
}
