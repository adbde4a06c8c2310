import type Stripe from "stripe";
import { z } from "zod";
import { badRequest, notFound } from "~/infra/errors.server";
import {
  endpointOfEvent,
  otherModeReason,
  verifyStripeEvent,
  type StripeEndpoint,
  type StripeWebhookSecrets,
} from "~/features/market/webhooks/stripe-webhook-routing.server";

/** The envelope every Stripe event has (its `data.object` is read by the handlers; a session has a string id). */
const stripeEventShape = z
  .object({
    id: z.string().min(1).max(255),
    type: z.string().min(1).max(255),
    data: z.object({ object: z.looseObject({}) }),
  })
  .refine(
    (event) =>
      !["checkout.session.", "charge.", "account.", "radar."].some((prefix) =>
        event.type.startsWith(prefix),
      ) || typeof event.data.object.id === "string",
  );

/** What the checks of a webhook call read: the endpoints' secrets and whether this server takes live events. */
export interface StripeWebhookSettings {
  /** The platform's endpoint and the Connect endpoint (creators' accounts) may share one URL; each has its own secret. */
  secrets: StripeWebhookSecrets;
  liveServer: boolean;
}

/** A checked webhook call: an event to act on, or one acknowledged and ignored (of the other mode than the server's). */
export type CheckedStripeWebhook =
  { event: Stripe.Event; endpoint: StripeEndpoint; ignored?: undefined } | { ignored: string };

/**
 * The checks a Stripe webhook call passes before anything is read from its
 * body: 404 when no webhook secret is configured, 400 without a signature,
 * with a signature no secret verifies, with a body that is not an event, or
 * with an event that does not fit the endpoint whose secret verified it
 * (stripe-webhook-routing.server.ts). A verified event of the other mode than
 * the server's is answered as ignored, with the reason. Answers the event and
 * its endpoint.
 */
export function checkStripeWebhook(
  settings: StripeWebhookSettings,
  payload: string,
  signature: string | undefined,
): CheckedStripeWebhook {
  const { secrets } = settings;
  if (!secrets.platform && !secrets.connect) throw notFound("Stripe webhooks are not configured");
  if (!signature) throw badRequest("Missing Stripe-Signature header");
  const { event, verifiedBy } = verifyStripeEvent(payload, signature, secrets);
  // Signed is not the same as well formed: anything but an event object is refused, not a 500.
  if (!stripeEventShape.safeParse(event).success) throw badRequest("Malformed Stripe event");
  const endpoint = endpointOfEvent(event, verifiedBy);
  const otherMode = otherModeReason(event, settings.liveServer);
  if (otherMode) return { ignored: otherMode };
  return { event, endpoint };
}
