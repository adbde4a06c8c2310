import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { handleStripeEvent } from "~/features/market/stripe-webhooks.server";
import { isLiveStripeKey } from "~/features/market/stripe-webhook-routing.server";
import { checkStripeWebhook } from "~/features/market/stripe-webhook-intake.server";

/**
 * POST /api/webhooks/stripe: the raw body is verified against
 * STRIPE_WEBHOOK_SECRET and STRIPE_CONNECT_WEBHOOK_SECRET before anything is
 * read from it; the secret that verified it says which endpoint's event it is
 * (stripe-webhook-routing.server.ts), and an event that does not fit that
 * endpoint or the server's mode (live or test) is refused with a 400
 * (stripe-webhook-intake.server.ts).
 */
export const receiveStripeWebhook = defineProcedure({
  name: "receiveStripeWebhook",
  access: "public",
  input: z.object({ payload: z.string(), signature: z.string().optional() }),
  async run({ input, ctx }) {
    const settings = {
      secrets: {
        platform: ctx.config.STRIPE_WEBHOOK_SECRET,
        connect: ctx.config.STRIPE_CONNECT_WEBHOOK_SECRET,
      },
      liveServer: isLiveStripeKey(ctx.config.STRIPE_SECRET_KEY),
    };
    const { event, endpoint } = checkStripeWebhook(settings, input.payload, input.signature);
    const outcome = await handleStripeEvent(ctx.db, event, { endpoint, now: ctx.now });
    if (outcome === "processed") announceJobs();
    return { received: true, outcome };
  },
});
