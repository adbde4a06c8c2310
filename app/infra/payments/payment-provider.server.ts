import type { PaymentProviderId } from "#db/schema";

/**
 * A payment provider plays the hosted checkout page. Two implementations,
 * chosen from the configuration: Stripe Checkout when STRIPE_SECRET_KEY is
 * set (stripe-checkout.server.ts), otherwise the built-in test checkout
 * (test-checkout.server.ts). Both end in the same fulfillment function.
 */
export interface CheckoutLineItem {
  title: string;
  style: string;
  priceCents: number;
  /** What the payment page says under the title; the style's sentence when left out (a bundle names its count). */
  description?: string;
  /** Absolute URL of the watermarked preview, when the site has a public https address. */
  imageUrl?: string;
}

export interface CheckoutRequest {
  orderId: string;
  customerEmail: string;
  currency: string;
  items: CheckoutLineItem[];
  /** Absolute origin for the return URLs, e.g. https://selfie.example. */
  origin: string;
  /** TAX=on: the provider computes and collects the tax (Stripe Tax); the test checkout priced it already. */
  automaticTax?: boolean;
}

export interface CheckoutSessionHandle {
  sessionId: string;
  /** Where the buyer goes to pay. */
  url: string;
}

/** What the provider says about a session right now. */
export interface RemoteSessionState {
  sessionId: string;
  orderId: string | null;
  /** open, complete or expired (Stripe's session status). */
  status: "open" | "complete" | "expired";
  /** paid, unpaid or no_payment_required (Stripe's payment_status). */
  paymentStatus: "paid" | "unpaid" | "no_payment_required";
  amountTotal: number | null;
  currency: string | null;
  /** Stripe's PaymentIntent once the session is paid; null for the test checkout. */
  paymentIntentId: string | null;
  /** The tax Stripe computed (total_details.amount_tax), in cents; null when it says none. */
  amountTax: number | null;
  /** The buyer's billing country (customer_details.address.country), ISO 3166-1 alpha-2; null when unknown. */
  customerCountry: string | null;
}

export interface RefundRequest {
  orderId: string;
  /** The order's PaymentIntent at the provider (null for the test checkout). */
  paymentIntentId: string | null;
  amountCents: number;
  /** The same key answers the first refund again: a retried request refunds once. */
  idempotencyKey: string;
}

export interface PaymentProvider {
  readonly id: PaymentProviderId;
  createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSessionHandle>;
  /** The provider's view of a session; null for a provider without remote state (the test checkout). */
  retrieveSession(sessionId: string): Promise<RemoteSessionState | null>;
  /** Gives money back to the buyer. The test checkout moved none, so it only answers a refund id. */
  refund(request: RefundRequest): Promise<{ refundId: string }>;
  /** The charge behind a PaymentIntent (a transfer's source_transaction); null when there is none. */
  chargeOf(paymentIntentId: string): Promise<string | null>;
}

/** The success return: the marketplace with ?session_id=...&success=true. */
export function successUrl(origin: string, sessionIdPlaceholder: string): string {
  return `${origin}/marketplace?session_id=${sessionIdPlaceholder}&success=true`;
}

export function cancelUrl(origin: string): string {
  return `${origin}/marketplace?checkout=cancelled`;
}
