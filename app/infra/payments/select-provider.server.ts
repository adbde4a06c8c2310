import type { PaymentProviderId } from "#db/schema";
import type { Config } from "~/infra/config.server";
import type { PaymentProvider } from "~/infra/payments/payment-provider.server";
import { StripeCheckoutProvider } from "~/infra/payments/stripe-checkout.server";
import { TestCheckoutProvider } from "~/infra/payments/test-checkout.server";

/** The provider new checkouts use: Stripe when STRIPE_SECRET_KEY is set, else the built-in test checkout. */
export function checkoutProvider(config: Pick<Config, "STRIPE_SECRET_KEY">): PaymentProvider {
  return config.STRIPE_SECRET_KEY
    ? new StripeCheckoutProvider(config.STRIPE_SECRET_KEY)
    : new TestCheckoutProvider();
}

/**
 * Whether sales in the built-in test checkout count as revenue and earnings.
 * Yes on a development or demo server, so the money visibly moves; never on a
 * production server, which runs the test checkout only with
 * ALLOW_TEST_CHECKOUT=true and where no money moved.
 */
export function testSalesCount(config: Pick<Config, "isProduction">): boolean {
  return !config.isProduction;
}

/** The provider that made an existing order, or null when it is no longer configured. */
export function providerFor(
  id: PaymentProviderId,
  config: Pick<Config, "STRIPE_SECRET_KEY">,
): PaymentProvider | null {
  if (id === "stripe")
    return config.STRIPE_SECRET_KEY ? new StripeCheckoutProvider(config.STRIPE_SECRET_KEY) : null;
  // A Shopify sale was paid in the creator's own store: no provider of ours took it.
  if (id === "shopify") return null;
  return new TestCheckoutProvider();
}
