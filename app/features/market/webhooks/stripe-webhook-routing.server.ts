import type Stripe from "stripe";
import { badRequest } from "~/infra/errors.server";
import { StripeCheckoutProvider } from "~/infra/payments/stripe-checkout.server";

/**
 * Which of Stripe's two webhook endpoints an event came from, told by the
 * secret that verified its signature (both endpoints may share the URL):
 *
 * - the platform endpoint (STRIPE_WEBHOOK_SECRET): events of the platform's
 *   own account (checkouts, charges, refunds, disputes); such an event names
 *   no connected account;
 * - the Connect endpoint (STRIPE_CONNECT_WEBHOOK_SECRET): events that
 *   happened on a creator's connected account, which the event names in
 *   `account` (account.updated).
 *
 * An event that does not fit the endpoint that signed it is refused (400,
 * nothing recorded), and so is an event that does not say its mode. An event
 * of the other mode is acknowledged and ignored (200, nothing recorded): a
 * live server (a live secret key) acts only on live-mode events, any other
 * server only on test-mode ones. Stripe sends both live and test-mode events
 * of connected accounts to a live Connect endpoint, and disables an endpoint
 * that keeps failing, so refusing them would cost the live events too.
 */
export type StripeEndpoint = "platform" | "connect";

/** A live Stripe secret key (sk_live_, or a restricted rk_live_) makes a live server; a test key or none, a test server. */
export function isLiveStripeKey(secretKey: string | undefined): boolean {
  return secretKey !== undefined && /^(sk|rk)_live_/.test(secretKey);
}

export interface StripeWebhookSecrets {
  platform?: string;
  connect?: string;
}

/**
 * Verifies the raw body's signature with each configured secret; answers the
 * event and every endpoint whose secret verified it, or throws 400.
 */
export function verifyStripeEvent(
  payload: string,
  signature: string,
  secrets: StripeWebhookSecrets,
): { event: Stripe.Event; verifiedBy: Set<StripeEndpoint> } {
  let event: Stripe.Event | undefined;
  const verifiedBy = new Set<StripeEndpoint>();
  for (const endpoint of ["platform", "connect"] as const) {
    const secret = secrets[endpoint];
    if (!secret) continue;
    try {
      event = StripeCheckoutProvider.constructEvent(payload, signature, secret);
      verifiedBy.add(endpoint);
    } catch {
      // Not signed with this secret.
    }
  }
  if (!event) throw badRequest("Invalid webhook signature");
  return { event, verifiedBy };
}

/** The endpoint a verified event belongs to, or a 400 saying why it belongs to none. */
export function endpointOfEvent(
  event: Pick<Stripe.Event, "account" | "livemode">,
  verifiedBy: Set<StripeEndpoint>,
): StripeEndpoint {
  if (typeof event.livemode !== "boolean")
    throw badRequest("The Stripe event does not say whether it is live or test mode");
  const namesAccount = typeof event.account === "string" && event.account.length > 0;
  if (namesAccount) {
    if (verifiedBy.has("connect")) return "connect";
    throw badRequest("An event signed for the platform endpoint must not name a connected account");
  }
  if (verifiedBy.has("platform")) return "platform";
  throw badRequest("An event signed for the Connect endpoint must name its connected account");
}

/** Why a verified event of the other mode than the server's is ignored, or null when its mode is the server's. */
export function otherModeReason(
  event: Pick<Stripe.Event, "livemode">,
  liveServer: boolean,
): string | null {
  if (liveServer && !event.livemode)
    return "A test-mode event, ignored: this server acts on live Stripe events only";
  if (!liveServer && event.livemode)
    return "A live-mode event, ignored: this server uses Stripe in test mode";
  return null;
}
