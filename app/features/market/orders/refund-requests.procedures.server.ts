import { defineProcedure } from "~/infra/procedure.server";
import type { CallContext } from "~/infra/call-context.server";
import { notFound } from "~/infra/errors.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { configuredOrigin } from "~/infra/configured-origin.server";
import { providerFor } from "~/infra/payments/select-provider.server";
import { findOrderBySessionId } from "~/features/market/orders/orders.server";
import {
  approveRefundRequest as approve,
  askForRefund,
  declineRefundRequest as decline,
  listRefundRequests,
  type RefundRequestDeps,
} from "~/features/market/orders/refund-requests.server";
import {
  adminRefundRequestsSchema,
  approveRefundRequestSchema,
  declineRefundRequestSchema,
  sessionRefundRequestSchema,
} from "~/features/market/orders/refund-request-schema";

/**
 * Refund requests (refund-requests.server.ts, decision 089): the buyer asks
 * (public: the checkout session, or on /library the signed library link, is
 * the key), the super admin approves or declines.
 */

/** What asking needs of the call: the window, the admin's link and address. */
export function refundRequestDeps(ctx: CallContext): RefundRequestDeps {
  return {
    db: ctx.db,
    now: ctx.now,
    windowDays: ctx.config.REFUND_WINDOW_DAYS,
    origin: configuredOrigin(ctx.config),
    adminEmail: ctx.config.ADMIN_EMAIL,
  };
}

export const NO_ORDER_OF_SESSION = "We found no order for this checkout session.";

/**
 * POST /api/refund-requests and the receipt's form: the buyer of the paid
 * order of this checkout session asks for its refund, with a reason. 202
 * `{id, status: "requested"}`; 404 for a session we do not know; 409 with the
 * reason after the window, for an order asked about already, refunded,
 * disputed or not paid.
 */
export const requestRefund = defineProcedure({
  name: "requestRefund",
  access: "public",
  input: sessionRefundRequestSchema,
  async run({ input, ctx }) {
    const order = await findOrderBySessionId(ctx.db, input.sessionId);
    if (!order) throw notFound(NO_ORDER_OF_SESSION);
    const made = await askForRefund(refundRequestDeps(ctx), order, input.reason);
    // The creators' and the admin's notices are queued: sent now rather than at the worker's next poll.
    announceJobs();
    return made;
  },
});

/** GET /api/admin/refund-requests and the admin portal's Refund requests. */
export const adminRefundRequests = defineProcedure({
  name: "adminRefundRequests",
  access: "admin",
  input: adminRefundRequestsSchema,
  run: ({ input, ctx }) => listRefundRequests(ctx.db, input),
});

/** POST /api/admin/refund-requests/{id}/approve and the section's Approve button: the order is refunded. */
export const approveRefundRequest = defineProcedure({
  name: "approveRefundRequest",
  access: "admin",
  input: approveRefundRequestSchema,
  async run({ input, user, ctx }) {
    const view = await approve(
      {
        db: ctx.db,
        now: ctx.now,
        providerOf: (id) => providerFor(id, ctx.config),
        windowDays: ctx.config.REFUND_WINDOW_DAYS,
      },
      { id: input.id, actorId: user.id },
    );
    announceJobs();
    return view;
  },
});

/** POST /api/admin/refund-requests/{id}/decline and the section's Decline button: the buyer is mailed the reason. */
export const declineRefundRequest = defineProcedure({
  name: "declineRefundRequest",
  access: "admin",
  input: declineRefundRequestSchema,
  async run({ input, user, ctx }) {
    const view = await decline(ctx.db, {
      id: input.id,
      reason: input.reason,
      actorId: user.id,
      now: ctx.now,
    });
    announceJobs();
    return view;
  },
});
