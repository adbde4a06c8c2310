import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { providerFor } from "~/infra/payments/select-provider.server";
import {
  ORDER_STATUSES,
  searchOrders,
  type AdminOrderView,
} from "~/features/market/orders/admin-orders.server";
import { refundPaidOrder } from "~/features/market/orders/order-refund.server";
import { taxCsvFile } from "~/features/market/orders/tax-report.server";

/** The admin's Orders: finding orders and refunding a paid one. */

/** GET /api/admin/orders and the admin's Orders view. */
export const adminOrders = defineProcedure({
  name: "adminOrders",
  access: "admin",
  input: z.object({
    q: z.string().trim().max(320).optional(),
    status: z.enum(ORDER_STATUSES).optional(),
  }),
  run: ({ input, ctx }) => searchOrders(ctx.db, input),
});

/**
 * POST /api/admin/orders/{orderId}/refund and the Orders view's Refund button:
 * the rest of a paid order goes back to the buyer, refunded at the provider
 * and recorded exactly once (order-refund.server.ts).
 */
export const refundOrder = defineProcedure({
  name: "refundOrder",
  access: "admin",
  input: z.object({
    orderId: z.string().trim().min(1).max(100),
    reason: z.string().trim().max(500).optional(),
  }),
  async run({ input, user, ctx }): Promise<AdminOrderView> {
    const view = await refundPaidOrder(
      { db: ctx.db, now: ctx.now, providerOf: (id) => providerFor(id, ctx.config) },
      { orderId: input.orderId, reason: input.reason, actorId: user.id },
    );
    // The refund's mail and the creators' reversals are queued: run them now rather than at the worker's next poll.
    announceJobs();
    return view;
  },
});

/** GET /api/admin/tax.csv and the Orders view's download /admin/tax.csv: sales and tax per month and country (tax-report.server.ts). */
export const adminTaxCsv = defineProcedure({
  name: "adminTaxCsv",
  access: "admin",
  input: z.object({}),
  run: ({ ctx }) => taxCsvFile(ctx.db, ctx.now),
});
