import { defineProcedure } from "~/infra/procedure.server";
import { PAYMENT_STATUS_RATE_LIMIT, throttle } from "~/infra/rate-limit.server";
import { providerFor } from "~/infra/payments/select-provider.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { sessionIdSchema } from "~/features/market/checkout/checkout-schema";
import { refreshOrderOfSession } from "~/features/market/checkout/order-refresh.server";
import { paymentStatusOf } from "~/features/market/checkout/payment-status.server";

/** How a checkout stands: the status polls, the payment monitor and the buyer's return from the payment page. */

/** A payment status read, limited per client address; `force` asks the provider even within its interval. */
const paymentStatusRead = (name: string, force: boolean) =>
  defineProcedure({
    name,
    access: "public",
    input: sessionIdSchema,
    async run({ input, ctx }) {
      await throttle(ctx, PAYMENT_STATUS_RATE_LIMIT);
      const deps = {
        db: ctx.db,
        now: ctx.now,
        providerOf: (id: Parameters<typeof providerFor>[0]) => providerFor(id, ctx.config),
      };
      const { order, synced } = await refreshOrderOfSession(deps, input.sessionId, force);
      // The receipt, queued when this call fulfilled the order: sent now rather than at the worker's next poll.
      if (synced) announceJobs();
      return paymentStatusOf(ctx.db, order, input.sessionId, ctx.origin, {
        now: ctx.now,
        windowDays: ctx.config.REFUND_WINDOW_DAYS,
      });
    },
  });

/** GET /api/payment-status/{sessionId} and the payment monitor: polled, so the provider is asked at most once per interval. */
export const paymentStatus = paymentStatusRead("paymentStatus", false);

/** The buyer's return from the payment page (/marketplace?session_id=...&success=true): always asks the provider. */
export const checkoutReturnStatus = paymentStatusRead("checkoutReturnStatus", true);
