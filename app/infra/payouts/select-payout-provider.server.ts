import type { PayoutProviderId } from "#db/schema";
import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import type { PayoutProvider } from "~/infra/payouts/payout-provider.server";
import { StripeConnectProvider } from "~/infra/payouts/stripe-connect.server";
import { TestPayoutProvider } from "~/infra/payouts/test-payouts.server";

/** The provider creators set payout accounts up with: Stripe Connect when STRIPE_SECRET_KEY is set, else the built-in test payouts. */
export function payoutProvider(config: Pick<Config, "STRIPE_SECRET_KEY">, db: DB): PayoutProvider {
  return config.STRIPE_SECRET_KEY ? new StripeConnectProvider(config.STRIPE_SECRET_KEY) : new TestPayoutProvider(db);
}

/** A provider by id, or null when it is not configured (Stripe without a key). */
export function payoutProviderById(id: PayoutProviderId, config: Pick<Config, "STRIPE_SECRET_KEY">, db: DB): PayoutProvider | null {
  if (id === "stripe") return config.STRIPE_SECRET_KEY ? new StripeConnectProvider(config.STRIPE_SECRET_KEY) : null;
  return new TestPayoutProvider(db);
}
