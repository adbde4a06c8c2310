import { Link, useNavigate } from "@remix-run/react";
import type { ReactNode } from "react";
import { lazy, Suspense } from "react";
import {
  DOWNLOAD_GRANT_DAYS,
  DOWNLOAD_GRANT_MAX_DOWNLOADS,
  PAYMENT_STATUS_UNKNOWN,
  PAYMENT_SUCCESSFUL,
} from "~/features/market/types";
import { DownloadList } from "~/features/market/library/components/download-list";
import type { DownloadItem } from "~/features/market/library/components/download-list";
import { useHydrated } from "~/ui/use-hydrated";
import { LibraryLinkForm } from "~/features/market/library/components/library-link-form";
import { RefundRequestPanel } from "~/features/market/orders/components/refund-request-form";
import type { BuyerRefundRequest } from "~/features/market/orders/refund-request";
import { taxLabel } from "~/features/market/checkout/checkout-tax";
import { formatMoney } from "~/lib/money";

const PurchaseCompleteDialog = lazy(() =>
  import("~/features/market/checkout/components/purchase-complete-dialog").then((module) => ({
    default: module.PurchaseCompleteDialog,
  })),
);

export interface PurchaseResult {
  success: boolean;
  paymentStatus: string;
  customerEmail: string | null;
  /** The name the buyer gave; the greeting falls back to the address without one. */
  customerName?: string | null;
  sessionId: string;
  licenseUrl: string | null;
  testMode: boolean;
  downloads: DownloadItem[];
  /** The buyer's refund request of the order, if they made one. */
  refundRequest?: BuyerRefundRequest | null;
  /** Until when the buyer may ask for a refund (null when they may not now). */
  refundableUntil?: string | null;
  /** The order's amounts, in the currency's units (the payment status's). */
  subtotal?: number;
  discount?: number;
  tax?: number;
  total?: number;
  currency?: string;
  country?: string | null;
  /** The test checkout's VAT rate in percent, or null. */
  taxRate?: number | null;
  reverseCharge?: boolean;
}

/** The receipt's amounts: subtotal, discount, tax and total, when there is a discount or tax (or a reverse charge). */
function ReceiptAmounts({ result }: { result: PurchaseResult }) {
  const cents = (units: number | undefined) => Math.round((units ?? 0) * 100);
  const tax = cents(result.tax);
  const discount = cents(result.discount);
  if (tax === 0 && discount === 0 && !result.reverseCharge) return null;
  const currency = result.currency ?? "usd";
  const rateBps = result.taxRate == null ? null : Math.round(result.taxRate * 100);
  return (
    <dl className="space-y-1 text-sm text-slate-700" data-testid="receipt-amounts">
      <div className="flex justify-between">
        <dt>Subtotal</dt>
        <dd>{formatMoney(cents(result.subtotal), currency)}</dd>
      </div>
      {discount > 0 ? (
        <div className="flex justify-between">
          <dt>Discount</dt>
          <dd data-testid="receipt-discount">-{formatMoney(discount, currency)}</dd>
        </div>
      ) : null}
      {tax > 0 ? (
        <div className="flex justify-between">
          <dt>{taxLabel({ rateBps, country: result.country ?? null })}</dt>
          <dd data-testid="receipt-tax">{formatMoney(tax, currency)}</dd>
        </div>
      ) : null}
      {result.reverseCharge ? <p>Reverse charge: no VAT charged; you account for it.</p> : null}
      <div className="flex justify-between font-semibold text-slate-900">
        <dt>Total</dt>
        <dd data-testid="receipt-total">{formatMoney(cents(result.total), currency)}</dd>
      </div>
    </dl>
  );
}

/**
 * The purchase-complete dialog after the return from payment
 * (?session_id=...&success=true). Closing it clears the query string. Without
 * JavaScript (and while the dialog's code loads) it is a panel at the top of
 * the page with a Close link.
 */
export function PurchaseComplete({ result }: { result: PurchaseResult | null }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const close = () => navigate("/marketplace", { replace: true, preventScrollReset: true });
  const title = result?.success
    ? PAYMENT_SUCCESSFUL.title
    : result?.paymentStatus === "processing"
      ? "Payment Processing"
      : PAYMENT_STATUS_UNKNOWN.title;
  const body = <PurchaseBody result={result} />;

  const panel = (
    <section
      className="card mb-6 p-6"
      aria-labelledby="purchase-complete-title"
      data-testid="purchase-complete"
    >
      <h2 id="purchase-complete-title" className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      {body}
      <div className="mt-4 flex justify-end">
        <Link to="/marketplace" replace className="btn-secondary">
          Close
        </Link>
      </div>
    </section>
  );
  if (!hydrated) return panel;
  // The panel stays until the dialog's code has arrived.
  return (
    <Suspense fallback={panel}>
      <PurchaseCompleteDialog title={title} onClose={close}>
        {body}
      </PurchaseCompleteDialog>
    </Suspense>
  );
}

function PurchaseBody({ result }: { result: PurchaseResult | null }): ReactNode {
  if (!result) {
    return <p className="mt-2 text-slate-600">{PAYMENT_STATUS_UNKNOWN.description}</p>;
  }
  if (!result.success) {
    // The same return address asks the payment provider again (the Payment Monitor is an operator's tool).
    const again = `/marketplace?session_id=${encodeURIComponent(result.sessionId)}&success=true`;
    return (
      <div className="mt-2 space-y-2 text-slate-600">
        <p>
          {result.paymentStatus === "processing"
            ? "Your payment is still being confirmed. Your download links appear as soon as it is."
            : PAYMENT_STATUS_UNKNOWN.description}
        </p>
        <p>
          <a href={again} className="font-medium text-brand-700 underline">
            Check again
          </a>{" "}
          in a moment: the link carries this payment&apos;s reference.
        </p>
        <RefundRequestPanel
          request={result.refundRequest ?? null}
          refundableUntil={null}
          keyFields={{}}
          formId="receipt-refund"
        />
      </div>
    );
  }
  const greeting = result.customerName?.trim() || result.customerEmail;
  return (
    <div className="mt-2 space-y-3">
      {result.testMode ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm font-medium text-amber-800">
          TEST MODE: no real payment was taken.
        </p>
      ) : null}
      {/* The buyer's name, in any script: <bdi> keeps a right-to-left one from reordering the commas. */}
      <p className="wrap-anywhere text-slate-600">
        Thank you
        {greeting ? (
          <>
            , <bdi data-testid="buyer-greeting">{greeting}</bdi>
          </>
        ) : null}
        . Your images are ready. Each link works for {DOWNLOAD_GRANT_DAYS} days and{" "}
        {DOWNLOAD_GRANT_MAX_DOWNLOADS} downloads.
      </p>
      <DownloadList downloads={result.downloads} />
      <ReceiptAmounts result={result} />
      {result.licenseUrl ? (
        <p className="text-sm text-slate-600">
          <a
            href={result.licenseUrl}
            className="inline-block py-0.5 font-medium text-brand-700 underline"
          >
            View your license
          </a>
        </p>
      ) : null}
      <RefundRequestPanel
        request={result.refundRequest ?? null}
        refundableUntil={result.refundableUntil ?? null}
        keyFields={{ intent: "receipt", sessionId: result.sessionId }}
        formId="receipt-refund"
      />
      <div className="border-t border-slate-200 pt-3">
        <LibraryLinkForm
          id="purchase-library-link"
          defaultEmail={result.customerEmail}
          intro="Your receipt is on its way by email with a link to your library. Need the link again later? Ask for it here."
        />
      </div>
    </div>
  );
}
