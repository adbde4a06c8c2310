import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { PageHeader } from "~/ui/page-header";
import { useToast } from "~/ui/toaster";
import {
  AvailableDownloadsCard,
  HowToUseCard,
  PaymentStatusCard,
  SessionDetailsCard,
} from "~/features/market/checkout/components/payment-monitor-cards";
import type { MonitoredPayment } from "~/features/market/checkout/components/payment-monitor-cards";
import { useHydrated } from "~/ui/use-hydrated";
import { useRevalidateWhile } from "~/ui/use-revalidate-while";
import { LibraryLinkForm } from "~/features/market/library/components/library-link-form";
import {
  PAYMENT_MONITOR_NOT_FOUND,
  PAYMENT_MONITOR_TRY_AGAIN,
  PAYMENT_POLL_INTERVAL_MS,
  PAYMENT_SUCCESSFUL,
  shouldKeepPolling,
} from "~/features/market/types";
import { PRODUCT_NAME } from "~/lib/product";
import { myRecentSales } from "~/features/market/analytics/procedures.server";
import { paymentStatus } from "~/features/market/checkout/payment-status.procedures.server";
import { RecentSales } from "~/features/market/analytics/components/recent-sales";
import { attemptProcedure, loadProcedure, refusalResponse } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { forwardLoaderHeaders } from "~/web/route-headers.server";
import { AlertMessage } from "~/ui/alert-message";

export const meta: MetaFunction = () => [{ title: `Payment Monitor | ${PRODUCT_NAME}` }];
export const headers = forwardLoaderHeaders;

/**
 * /payment-monitor: signed in only. A buyer looks up their checkout session;
 * a creator sees their latest sales and each payment's state below. Without JavaScript it is
 * a GET form and a refresh link; with it, the status polls every 5 seconds
 * until the payment is completed.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const sessionId = (new URL(args.request.url).searchParams.get("session_id") ?? "").trim();
  let result: MonitoredPayment | null = null;
  let failed = false;
  let notFound = false;
  if (sessionId) {
    const outcome = await attemptProcedure(paymentStatus, args, { sessionId }, user);
    if (outcome.ok) {
      const status = outcome.result;
      result = {
        success: status.success,
        paymentStatus: status.paymentStatus,
        customerEmail: status.customerEmail,
        total: status.total,
        sessionId: status.sessionId,
        error: status.error,
        licenseUrl: status.licenseUrl,
        testMode: status.testMode,
        downloads: status.downloads,
      };
    } else {
      // A refusal under 500 is shown on the page; the rest go to the ErrorBoundary.
      if (outcome.refusal.status >= 500) throw refusalResponse(outcome.refusal);
      failed = true;
      notFound = outcome.refusal.status === 404 || outcome.refusal.status === 400;
    }
  }
  const sales = await loadProcedure(myRecentSales, args, {}, user);
  return json(
    { sessionId, result, failed, notFound, sales },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function PaymentMonitor() {
  const loaded = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const toast = useToast();
  const [draft, setDraft] = useState(loaded.sessionId);
  const [result, setResult] = useState<MonitoredPayment | null>(loaded.result);
  const [failed, setFailed] = useState(loaded.failed);
  const [notFound, setNotFound] = useState(Boolean(loaded.notFound));
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    setDraft(loaded.sessionId);
    setResult(loaded.result);
    setFailed(loaded.failed);
    setNotFound(Boolean(loaded.notFound));
  }, [loaded]);

  const refresh = useCallback(async () => {
    if (!loaded.sessionId) return;
    setChecking(true);
    try {
      // No auth header: GET /api/payment-status/{sessionId} is public, by session id.
      const response = await fetch(`/api/payment-status/${encodeURIComponent(loaded.sessionId)}`, {
        headers: { Accept: "application/json" },
      });
      if (response.status === 404 || response.status === 400) {
        setNotFound(true);
        setFailed(true);
        return;
      }
      if (!response.ok)
        throw new Error(`${response.status}: ${(await response.text()) || response.statusText}`);
      const next = (await response.json()) as MonitoredPayment;
      setResult((previous) => {
        if (next.success && !previous?.success)
          toast({ kind: "success", title: PAYMENT_SUCCESSFUL.title });
        return next;
      });
      setFailed(false);
      setNotFound(false);
    } catch {
      setFailed(true);
      setNotFound(false);
    } finally {
      setChecking(false);
    }
  }, [loaded.sessionId, toast]);

  const polling = Boolean(loaded.sessionId) && !failed && shouldKeepPolling(result);
  useRevalidateWhile(polling, {
    intervalMs: PAYMENT_POLL_INTERVAL_MS,
    reload: { run: () => void refresh(), busy: checking },
  });

  const refreshHref = `/payment-monitor?session_id=${encodeURIComponent(loaded.sessionId)}`;
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <PageHeader
        title="Payment Monitor"
        subtitle="Look up a checkout session and watch its payment until it completes."
      />
      <Form method="get" className="card mt-6 flex flex-col gap-3 p-4 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor="session-id" className="field-label">
            Checkout session ID
          </label>
          <input
            id="session-id"
            name="session_id"
            required
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="cs_..."
            autoComplete="off"
            spellCheck={false}
            className="field-input font-mono"
          />
        </div>
        <button type="submit" className="btn-primary" disabled={hydrated && draft.trim() === ""}>
          Monitor
        </button>
      </Form>

      {loaded.sessionId ? (
        <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2" data-testid="monitor-result">
          <div className="min-w-0 space-y-6">
            {failed ? (
              <AlertMessage testId="monitor-error">
                {notFound ? PAYMENT_MONITOR_NOT_FOUND : PAYMENT_MONITOR_TRY_AGAIN}
              </AlertMessage>
            ) : null}
            <PaymentStatusCard result={result} />
            {result?.success && result.downloads.length > 0 ? (
              <AvailableDownloadsCard result={result} />
            ) : null}
          </div>
          <div className="min-w-0 space-y-6">
            <SessionDetailsCard sessionId={loaded.sessionId} result={result} />
            <div className="flex flex-wrap items-center gap-3">
              <Link
                to={refreshHref}
                className="btn-secondary"
                onClick={(event) => {
                  if (!hydrated) return;
                  event.preventDefault();
                  void refresh();
                }}
                aria-disabled={checking}
              >
                {checking ? "Refreshing..." : "Refresh Status"}
              </Link>
              {polling && hydrated ? (
                <span className="text-sm text-slate-500">Checking every 5 seconds</span>
              ) : null}
            </div>
            <HowToUseCard />
            <LibraryCard email={result?.customerEmail ?? null} />
          </div>
        </div>
      ) : (
        <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
          <HowToUseCard />
          <LibraryCard email={null} />
        </div>
      )}
      <RecentSales sales={loaded.sales} />
    </div>
  );
}

/** Every purchase of an email, again: the library link by email (a plain form posting to /library). */
function LibraryCard({ email }: { email: string | null }) {
  return (
    <section className="card p-6" aria-labelledby="library-card-title">
      <h2 id="library-card-title" className="text-lg font-semibold text-slate-900">
        Your library
      </h2>
      <div className="mt-2">
        <LibraryLinkForm id="monitor-library-link" defaultEmail={email} />
      </div>
    </section>
  );
}
