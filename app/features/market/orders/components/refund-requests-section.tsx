import { Form } from "@remix-run/react";
import { longDate } from "~/lib/dates";
import { styleName } from "~/lib/styles";
import { SectionCard } from "~/ui/data-table";
import {
  REFUND_REASON_MAX,
  type AdminRefundRequest,
} from "~/features/market/orders/refund-request";

const STATE_LABELS: Record<AdminRefundRequest["status"], string> = {
  requested: "Waiting for a decision",
  refunded: "Refunded",
  declined: "Declined",
};

/**
 * The admin portal's Refund requests: buyers' requests, those waiting first
 * (the one waiting longest on top), each with the buyer's reason, the order
 * and its items; a waiting one has Approve (the order is refunded, as the
 * Orders view's Refund does) and Decline with a reason the buyer is mailed.
 * Plain form posts to /admin, so it works without JavaScript.
 */
export function RefundRequestsSection({ requests }: { requests: readonly AdminRefundRequest[] }) {
  const waiting = requests.filter((request) => request.status === "requested").length;
  return (
    <SectionCard
      id="refund-requests"
      headingId="refund-requests-heading"
      heading="Refund requests"
      description={
        <p className="text-sm text-slate-600" data-testid="refund-requests-summary">
          {waiting === 1 ? "1 waits" : `${waiting} wait`} for a decision, the oldest first; then the
          decided ones.
        </p>
      }
      className="card mt-8 scroll-mt-24 overflow-hidden"
      testId="admin-refund-requests"
    >
      {requests.length === 0 ? (
        <p className="p-5 text-sm text-slate-600">No buyer has asked for a refund.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {requests.map((request) => (
            <RefundRequestItem key={request.id} request={request} />
          ))}
        </ul>
      )}
    </SectionCard>
  );
}

function RefundRequestItem({ request }: { request: AdminRefundRequest }) {
  const reasonId = `refund-decline-${request.id}`;
  return (
    <li className="space-y-3 p-5" data-testid="refund-request-item" data-status={request.status}>
      <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-medium wrap-anywhere text-slate-900">
            Order <code className="text-sm">{request.orderId}</code> · {request.total}
            {request.testMode ? (
              <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900">
                Test sale
              </span>
            ) : null}
          </p>
          <p className="text-sm wrap-anywhere text-slate-600">
            {request.customerEmail} · paid {request.paidAt ? longDate(request.paidAt) : "never"} ·
            asked {longDate(request.requestedAt)} · the order is {request.orderStatus}
          </p>
          <ul className="mt-1 text-sm text-slate-700">
            {request.items.map((item) => (
              <li key={item.saleReference} className="wrap-anywhere">
                {item.title} ({styleName(item.style)} style)
              </li>
            ))}
          </ul>
        </div>
        <p
          className={
            request.status === "requested"
              ? "text-sm font-semibold text-amber-800"
              : "text-sm text-slate-700"
          }
          data-testid="refund-request-status"
        >
          {STATE_LABELS[request.status]}
          {request.decidedAt ? ` ${longDate(request.decidedAt)}` : ""}
          {request.declineReason ? `: ${request.declineReason}` : ""}
        </p>
      </div>
      {request.reason ? (
        <p className="rounded-lg bg-slate-50 p-3 text-sm whitespace-pre-line wrap-anywhere text-slate-800">
          {request.reason}
        </p>
      ) : null}
      {request.status === "requested" ? (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <Form method="post" action="/admin#refund-requests">
            <input type="hidden" name="intent" value="approve-refund-request" />
            <input type="hidden" name="id" value={request.id} />
            <button
              type="submit"
              className="btn-primary"
              aria-label={`Approve: refund order ${request.orderId}`}
            >
              Approve and refund
            </button>
          </Form>
          <Form method="post" action="/admin#refund-requests" className="flex-1 space-y-2">
            <input type="hidden" name="intent" value="decline-refund-request" />
            <input type="hidden" name="id" value={request.id} />
            <label htmlFor={reasonId} className="field-label">
              Why decline (mailed to the buyer)
            </label>
            <textarea
              id={reasonId}
              name="reason"
              required
              rows={2}
              maxLength={REFUND_REASON_MAX}
              className="field-input"
            />
            <button
              type="submit"
              className="btn-secondary"
              aria-label={`Decline the refund of order ${request.orderId}`}
            >
              Decline
            </button>
          </Form>
        </div>
      ) : null}
    </li>
  );
}
