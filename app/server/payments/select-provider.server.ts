import type { PaymentProviderId } from "#db/schema";
import type { Config } from "~/server/config.server";
import type { PaymentProvider } from "./payment-provider.server";
import { StripeCheckoutProvider } from "./stripe-checkout.server";
import { TestCheckoutProvider } from "./test-checkout.server";

/** The provider new checkouts use: Stripe when STRIPE_SECRET_KEY is set, else the built-in test checkout. */
export function checkoutProvider(config: Pick<Config, "STRIPE_SECRET_KEY">): PaymentProvider {
  return config.STRIPE_SECRET_KEY ? new StripeCheckoutProvider(config.STRIPE_SECRET_KEY) : new TestCheckoutProvider();
}

/** The provider that made an existing order, or null when it is no longer configured. */
export function providerFor(id: PaymentProviderId, config: Pick<Config, "STRIPE_SECRET_KEY">): PaymentProvider | null {
  if (id === "stripe") return config.STRIPE_SECRET_KEY ? new StripeCheckoutProvider(config.STRIPE_SECRET_KEY) : null;
  return new TestCheckoutProvider();
}
