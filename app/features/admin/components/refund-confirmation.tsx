import type { ReactNode } from "react";
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from "@headlessui/react";
import { Form, Link, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import type { AdminOrder } from "~/features/admin/sales-types";
import { formatDollarString, REFUND_REASON_MAX, refundableAmount, refundConsequences } from "~/features/admin/sales-types";
import { useHydrated } from "~/ui/use-hydrated";

/**
 * "Refund order <id>?": addressed by the URL (?refund=<id>). Without
 * JavaScript the server renders it as a plain modal panel whose form posts
 * intent=refund-order and whose Cancel is a link; once hydrated it is a
 * Headless UI Dialog (focus trap, Escape and backdrop click cancel).
 */
export function RefundConfirmation({ order, closeHref }: { order: AdminOrder; closeHref: string }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const close = () => navigate(closeHref, { preventScrollReset: true });

  if (!hydrated) {
    return (
      <div className="relative z-50">
        <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
        <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-4">
          <div
            role="dialog"
            aria-modal="true"
            aria-labelledby="refund-title"
            className="card w-full max-w-lg p-6 shadow-xl"
            data-testid="refund-confirmation"
          >
            <h2 id="refund-title" className="text-lg font-semibold text-slate-900">
              Refund order <span className="font-mono break-all">{order.id}</span>?
            </h2>
            <RefundForm order={order} cancel={<Link to={closeHref} className="btn-secondary" preventScrollReset>Cancel</Link>} />
          </div>
        </div>
      </div>
    );
  }

  return (
    <Dialog open onClose={close} className="fixed inset-0 z-50 overflow-y-auto">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/50" />
      <div className="relative flex min-h-full items-center justify-center p-4">
        <DialogPanel className="card w-full max-w-lg p-6 shadow-xl" data-testid="refund-confirmation">
          <DialogTitle className="text-lg font-semibold text-slate-900">
            Refund order <span className="font-mono break-all">{order.id}</span>?
          </DialogTitle>
          <RefundForm
            order={order}
            cancel={
              <button type="button" className="btn-secondary" onClick={close}>
                Cancel
              </button>
            }
          />
        </DialogPanel>
      </div>
    </Dialog>
  );
}

function RefundForm({ order, cancel }: { order: AdminOrder; cancel: ReactNode }) {
  const location = useLocation();
  const navigation = useNavigation();
  const amount = refundableAmount(order);
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "refund-order";
  return (
    <Form method="post" action={`/admin${location.search}`} preventScrollReset className="mt-4">
      <input type="hidden" name="intent" value="refund-order" />
      <input type="hidden" name="orderId" value={order.id} />
      <dl className="grid grid-cols-1 gap-3 rounded-lg bg-slate-50 p-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Amount to refund</dt>
          <dd className="mt-1 font-semibold text-slate-900 tabular-nums" data-testid="refund-amount">
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
        <p className="mt-2 text-sm text-amber-800">This order was paid in the built-in test checkout, so no real money moves.</p>
      ) : null}
      <label htmlFor="refund-reason" className="field-label mt-4 block">
        Reason <span className="font-normal text-slate-500">(optional, kept with the order)</span>
      </label>
      <textarea id="refund-reason" name="reason" rows={2} maxLength={REFUND_REASON_MAX} className="field-input" />
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        {cancel}
        <button type="submit" className="btn bg-red-600 text-white hover:bg-red-700 disabled:opacity-60" disabled={pending} data-testid="confirm-refund">
          {pending ? "Refunding..." : `Refund ${formatDollarString(amount)}`}
        </button>
      </div>
    </Form>
  );
}
