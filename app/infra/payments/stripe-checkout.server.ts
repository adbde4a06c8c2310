import Stripe from "stripe";
import type {
  CheckoutRequest,
  CheckoutSessionHandle,
  PaymentProvider,
  RefundRequest,
  RemoteSessionState,
} from "~/infra/payments/payment-provider.server";
import { cancelUrl, successUrl } from "~/infra/payments/payment-provider.server";
import { styleName } from "~/lib/styles";

/**
 * Stripe Checkout through the official `stripe` library (its Node http client,
 * which msw intercepts in tests). The client is made per provider, so tests
 * that start msw first get an intercepted client.
 */
export function createStripeClient(secretKey: string): Stripe {
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: "Selfie Studio" },
  });
}

export class StripeCheckoutProvider implements PaymentProvider {
  readonly id = "stripe" as const;
  private readonly stripe: Stripe;

  constructor(secretKey: string) {
    this.stripe = createStripeClient(secretKey);
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSessionHandle> {
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: "payment",
        customer_email: request.customerEmail,
        client_reference_id: request.orderId,
        metadata: { order_id: request.orderId },
        payment_intent_data: { metadata: { order_id: request.orderId } },
        line_items: request.items.map((item) => ({
          quantity: 1,
          price_data: {
            currency: request.currency,
            unit_amount: item.priceCents,
            // The tax comes on top of the price the buyer was shown.
            ...(request.automaticTax ? { tax_behavior: "exclusive" as const } : {}),
            product_data: {
              ...(request.automaticTax ? { tax_code: DIGITAL_IMAGE_TAX_CODE } : {}),
              name: item.title,
              description:
                item.description ??
                `${styleName(item.style)} style. Standard commercial license, full-resolution download.`,
              ...(item.imageUrl ? { images: [item.imageUrl] } : {}),
            },
          },
        })),
        ...(request.automaticTax ? automaticTaxParams() : {}),
        success_url: successUrl(request.origin, "{CHECKOUT_SESSION_ID}"),
        cancel_url: cancelUrl(request.origin),
      },
      // One order, one session: a retried request (ours or the library's) cannot create a second.
      { idempotencyKey: `checkout-session-${request.orderId}` },
    );
    if (!session.url) throw new Error("Stripe returned a Checkout Session without a url");
    return { sessionId: session.id, url: session.url };
  }

  async retrieveSession(sessionId: string): Promise<RemoteSessionState | null> {
    const session = await this.stripe.checkout.sessions.retrieve(sessionId);
    return remoteStateOf(session);
  }

  /** A refund of (part of) the order's PaymentIntent; the idempotency key makes a retried request refund once. */
  async refund(request: RefundRequest): Promise<{ refundId: string }> {
    if (!request.paymentIntentId)
      throw new Error(`Order ${request.orderId} has no Stripe PaymentIntent to refund`);
    const refund = await this.stripe.refunds.create(
      {
        payment_intent: request.paymentIntentId,
        amount: request.amountCents,
        reason: "requested_by_customer",
        metadata: { order_id: request.orderId },
      },
      { idempotencyKey: request.idempotencyKey },
    );
    return { refundId: refund.id };
  }

  async chargeOf(paymentIntentId: string): Promise<string | null> {
    const intent = await this.stripe.paymentIntents.retrieve(paymentIntentId);
    const charge = intent.latest_charge;
    if (!charge) return null;
    return typeof charge === "string" ? charge : charge.id;
  }

  /** Verifies a webhook's signature against the raw body and parses the event (throws when it does not match). */
  static constructEvent(payload: string, signature: string, webhookSecret: string): Stripe.Event {
    return Stripe.webhooks.constructEvent(payload, signature, webhookSecret);
  }
}

/**
 * Stripe's tax code for the images sold: "Digital Photographs/Images -
 * downloaded - non subscription - with permanent rights" (Stripe's list of
 * product tax codes).
 */
export const DIGITAL_IMAGE_TAX_CODE = "txcd_10501000";

/**
 * TAX=on (docs/decisions/102): Stripe Tax computes the tax from the buyer's
 * billing address, which Checkout then requires; the platform is liable
 * (`self`: its own registrations; the creators are paid by transfers, the
 * platform sells); a business may give its tax ID (an EU VAT number, say),
 * which Stripe uses for the reverse charge.
 */
function automaticTaxParams() {
  return {
    automatic_tax: { enabled: true, liability: { type: "self" as const } },
    billing_address_collection: "required" as const,
    tax_id_collection: { enabled: true },
  };
}

export function remoteStateOf(session: Stripe.Checkout.Session): RemoteSessionState {
  return {
    sessionId: session.id,
    orderId: session.metadata?.order_id ?? session.client_reference_id ?? null,
    status: (session.status ?? "open") as RemoteSessionState["status"],
    paymentStatus: session.payment_status as RemoteSessionState["paymentStatus"],
    amountTotal: session.amount_total ?? null,
    currency: session.currency ?? null,
    paymentIntentId:
      typeof session.payment_intent === "string"
        ? session.payment_intent
        : (session.payment_intent?.id ?? null),
    amountTax: session.total_details?.amount_tax ?? null,
    customerCountry: session.customer_details?.address?.country ?? null,
  };
}
