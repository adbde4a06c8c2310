import type { ReactNode } from "react";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import type { AdminOrder } from "~/features/admin/sales-types";
import {
  formatDollarString,
  REFUND_REASON_MAX,
  refundableAmount,
  refundConsequences,
} from "~/features/admin/sales-types";
import { UrlDialog } from "~/ui/url-dialog";
import { ConfirmActions } from "~/ui/confirm-actions";

/**
 * "Refund order <id>?": addressed by the URL (?refund=<id>). Without
 * JavaScript the server renders it as a plain modal panel whose form posts
 * intent=refund-order and whose Cancel is a link; once hydrated it is a
 * Headless UI Dialog (focus trap, Escape and backdrop click cancel).
 */
export function RefundConfirmation({ order, closeHref }: { order: AdminOrder; closeHref: string }) {
  return (
    <UrlDialog
      title={
        <>
          Refund order <span className="font-mono break-all">{order.id}</span>?
        </>
      }
      titleId="refund-title"
      testId="refund-confirmation"
      closeHref={closeHref}
    >
      {(cancel) => <RefundForm order={order} cancel={cancel} />}
    </UrlDialog>
  );
}

function RefundForm({ order, cancel }: { order: AdminOrder; cancel: ReactNode }) {
  const location = useLocation();
  const navigation = useNavigation();
  const amount = refundableAmount(order);
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "refund-order";
  return (
    <Form method="post" action={`/admin${location.search}`} preventScrollReset className="mt-4">
      <input type="hidden" name="intent" value="refund-order" />
      <input type="hidden" name="orderId" value={order.id} />
      <dl className="grid grid-cols-1 gap-3 rounded-lg bg-slate-50 p-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">
            Amount to refund
          </dt>
          <dd
            className="mt-1 font-semibold text-slate-900 tabular-nums"
            data-testid="refund-amount"
          >
            {formatDollarString(amount)}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Buyer</dt>
          <dd className="mt-1 truncate font-medium text-slate-900">{order.customerEmail}</dd>
        </div>
      </dl>
      <p className="mt-4 text-sm text-slate-700">{refundConsequences(amount)}</p>
      {order.provider === "test" ? (
        <p className="mt-2 text-sm text-amber-800">
          This order was paid in the built-in test checkout, so no real money moves.
        </p>
      ) : null}
      <label htmlFor="refund-reason" className="field-label mt-4 block">
        Reason <span className="font-normal text-slate-500">(optional, kept with the order)</span>
      </label>
      <textarea
        id="refund-reason"
        name="reason"
        rows={2}
        maxLength={REFUND_REASON_MAX}
        className="field-input"
      />
      <ConfirmActions
        cancel={cancel}
        pending={pending}
        pendingLabel="Refunding..."
        label={`Refund ${formatDollarString(amount)}`}
        testId="confirm-refund"
      />
    </Form>
  );
}
