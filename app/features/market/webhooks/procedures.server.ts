import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { handleStripeEvent } from "~/features/market/webhooks/stripe-webhooks.server";
import { isLiveStripeKey } from "~/features/market/webhooks/stripe-webhook-routing.server";
import { checkStripeWebhook } from "~/features/market/webhooks/stripe-webhook-intake.server";

/**
 * POST /api/webhooks/stripe: the raw body is verified against
 * STRIPE_WEBHOOK_SECRET and STRIPE_CONNECT_WEBHOOK_SECRET before anything is
 * read from it; the secret that verified it says which endpoint's event it is
 * (stripe-webhook-routing.server.ts); an event that does not fit that
 * endpoint is refused with a 400, and one of the other mode than the server's
 * (live or test) is answered 200 "ignored" and changes nothing
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
    const checked = checkStripeWebhook(settings, input.payload, input.signature);
    if (checked.ignored !== undefined)
      return { received: true, outcome: "ignored" as const, reason: checked.ignored };
    const { event, endpoint } = checked;
    const outcome = await handleStripeEvent(ctx.db, event, { endpoint, now: ctx.now });
    if (outcome === "processed") announceJobs();
    return { received: true, outcome };
  },
});
