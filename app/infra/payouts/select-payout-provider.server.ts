import type { PayoutProviderId } from "#db/schema";
import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import type { PayoutPlatform, PayoutProvider } from "~/infra/payouts/payout-provider.server";
import { StripeConnectProvider } from "~/infra/payouts/stripe-connect.server";
import { TestPayoutProvider } from "~/infra/payouts/test-payouts.server";

type PayoutConfig = Pick<Config, "STRIPE_SECRET_KEY"> &
  Partial<Pick<Config, "STRIPE_PLATFORM_COUNTRY" | "CURRENCY">>;

/** The platform's country and settlement currency (US and usd unless configured). */
export function platformOf(config: PayoutConfig): PayoutPlatform {
  return { country: config.STRIPE_PLATFORM_COUNTRY ?? "US", currency: config.CURRENCY ?? "usd" };
}

/** The provider creators set payout accounts up with: Stripe Connect when STRIPE_SECRET_KEY is set, else the built-in test payouts. */
export function payoutProvider(config: PayoutConfig, db: DB): PayoutProvider {
  return config.STRIPE_SECRET_KEY
    ? new StripeConnectProvider(config.STRIPE_SECRET_KEY, platformOf(config))
    : new TestPayoutProvider(db, platformOf(config));
}

/** A provider by id, or null when it is not configured (Stripe without a key). */
export function payoutProviderById(
  id: PayoutProviderId,
  config: PayoutConfig,
  db: DB,
): PayoutProvider | null {
  if (id === "stripe")
    return config.STRIPE_SECRET_KEY
      ? new StripeConnectProvider(config.STRIPE_SECRET_KEY, platformOf(config))
      : null;
  return new TestPayoutProvider(db, platformOf(config));
}
