import type { ReactNode } from "react";
import { paymentStatusColour } from "~/features/market/types";
import { DownloadList } from "~/features/market/library/components/download-list";
import type { DownloadItem } from "~/features/market/library/components/download-list";

/** The payment monitor's cards. */

export interface MonitoredPayment {
  success: boolean;
  paymentStatus: string;
  customerEmail: string | null;
  total: number;
  sessionId: string;
  error: string | null;
  licenseUrl: string | null;
  testMode: boolean;
  downloads: DownloadItem[];
}

const BADGE: Record<ReturnType<typeof paymentStatusColour>, string> = {
  green: "bg-emerald-100 text-emerald-800 ring-emerald-200",
  yellow: "bg-amber-100 text-amber-800 ring-amber-200",
  red: "bg-red-100 text-red-800 ring-red-200",
  grey: "bg-slate-100 text-slate-700 ring-slate-200",
};

export function StatusBadge({ status }: { status: string | null | undefined }) {
  const colour = paymentStatusColour(status);
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-sm font-medium capitalize ring-1 ${BADGE[colour]}`}
      data-testid="payment-status"
      data-colour={colour}
    >
      {status || "unknown"}
    </span>
  );
}

/** A card of the monitor: a section named by its heading. */
function MonitorCard({
  id,
  title,
  className = "card p-6",
  testId,
  children,
}: {
  id: string;
  title: string;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <section className={className} aria-labelledby={id} data-testid={testId}>
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Below sm each figure stacks under its label and a long email breaks, so the card never outgrows a phone. */
export function PaymentStatusCard({ result }: { result: MonitoredPayment | null }) {
  return (
    <MonitorCard
      id="payment-status-title"
      title="Payment Status"
      className="card min-w-0 p-6"
      testId="payment-status-card"
    >
      <dl className="mt-4 space-y-3 text-sm">
        <div className="flex flex-col items-start gap-1 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
          <dt className="text-slate-600">Status</dt>
          <dd>
            <StatusBadge status={result?.paymentStatus} />
          </dd>
        </div>
        <div className="flex flex-col items-start gap-1 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
          <dt className="text-slate-600">Customer email</dt>
          <dd
            className="max-w-full min-w-0 font-medium break-all text-slate-900 sm:text-right"
            data-testid="payment-email"
          >
            {result?.customerEmail || "N/A"}
          </dd>
        </div>
        <div className="flex flex-col items-start gap-1 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
          <dt className="text-slate-600">Total amount</dt>
          <dd className="font-medium text-slate-900" data-testid="payment-total">
            ${(result?.total ?? 0).toFixed(2)}
          </dd>
        </div>
      </dl>
      {result?.testMode ? (
        <p className="mt-4 text-xs font-medium text-amber-700">
          TEST MODE order (built-in test checkout)
        </p>
      ) : null}
    </MonitorCard>
  );
}

export function AvailableDownloadsCard({ result }: { result: MonitoredPayment }) {
  return (
    <MonitorCard id="downloads-title" title="Available Downloads">
      <div className="mt-2">
        <DownloadList downloads={result.downloads} />
      </div>
      {result.licenseUrl ? (
        <a
          href={result.licenseUrl}
          className="mt-3 inline-block text-sm font-medium text-brand-700 underline"
        >
          View the license for this order
        </a>
      ) : null}
    </MonitorCard>
  );
}

export function SessionDetailsCard({
  sessionId,
  result,
}: {
  sessionId: string;
  result: MonitoredPayment | null;
}) {
  return (
    <MonitorCard id="session-details-title" title="Session Details">
      <dl className="mt-4 space-y-3 text-sm">
        <div>
          <dt className="text-slate-600">Session ID</dt>
          <dd className="mt-1 font-mono text-xs break-all text-slate-900">{sessionId}</dd>
        </div>
        <div className="flex items-center gap-2">
          <dt className="text-slate-600">Success</dt>
          <dd data-testid="payment-success">
            {result?.success ? (
              <span className="font-semibold text-emerald-700">
                <span aria-hidden="true">✓ </span>Yes
              </span>
            ) : (
              <span className="font-semibold text-slate-600">
                <span aria-hidden="true">✗ </span>No
              </span>
            )}
          </dd>
        </div>
        {result?.error ? (
          <div>
            <dt className="text-slate-600">Error</dt>
            <dd className="mt-1 text-red-700">{result.error}</dd>
          </div>
        ) : null}
      </dl>
    </MonitorCard>
  );
}

export function HowToUseCard() {
  return (
    <MonitorCard id="how-to-use-title" title="How to Use">
      <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm text-slate-700">
        <li>
          Copy the checkout session id from your payment return link (the session_id in the
          address).
        </li>
        <li>Paste it into the Checkout session ID box above.</li>
        <li>Press Monitor to look the payment up.</li>
        <li>
          The status refreshes every 5 seconds until the payment is completed; Refresh Status checks
          at once.
        </li>
        <li>
          Once it is completed, download your images and open the license from Available Downloads.
        </li>
      </ol>
    </MonitorCard>
  );
}
