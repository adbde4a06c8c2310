import type Stripe from "stripe";
import { z } from "zod";
import { badRequest, notFound } from "~/infra/errors.server";
import {
  endpointOfEvent,
  verifyStripeEvent,
  type StripeEndpoint,
  type StripeWebhookSecrets,
} from "~/features/market/stripe-webhook-routing.server";

/** The envelope every Stripe event has (its `data.object` is read by the handlers; a session has a string id). */
const stripeEventShape = z
  .object({
    id: z.string().min(1).max(255),
    type: z.string().min(1).max(255),
    data: z.object({ object: z.looseObject({}) }),
  })
  .refine(
    (event) =>
      !["checkout.session.", "charge.", "account."].some((prefix) =>
        event.type.startsWith(prefix),
      ) || typeof event.data.object.id === "string",
  );

/** What the checks of a webhook call read: the endpoints' secrets and whether this server takes live events. */
export interface StripeWebhookSettings {
  /** The platform's endpoint and the Connect endpoint (creators' accounts) may share one URL; each has its own secret. */
  secrets: StripeWebhookSecrets;
  liveServer: boolean;
}

/**
 * The checks a Stripe webhook call passes before anything is read from its
 * body: 404 when no webhook secret is configured, 400 without a signature,
 * with a signature no secret verifies, with a body that is not an event, or
 * with an event that does not fit the endpoint whose secret verified it or
 * the server's mode (stripe-webhook-routing.server.ts). Answers the event and
 * its endpoint.
 */
export function checkStripeWebhook(
  settings: StripeWebhookSettings,
  payload: string,
  signature: string | undefined,
): { event: Stripe.Event; endpoint: StripeEndpoint } {
  const { secrets } = settings;
  if (!secrets.platform && !secrets.connect) throw notFound("Stripe webhooks are not configured");
  if (!signature) throw badRequest("Missing Stripe-Signature header");
  const { event, verifiedBy } = verifyStripeEvent(payload, signature, secrets);
  // Signed is not the same as well formed: anything but an event object is refused, not a 500.
  if (!stripeEventShape.safeParse(event).success) throw badRequest("Malformed Stripe event");
  return { event, endpoint: endpointOfEvent(event, verifiedBy, settings.liveServer) };
}
