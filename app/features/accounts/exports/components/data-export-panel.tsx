import { Form, useNavigation } from "@remix-run/react";
import type { AccountExportView } from "~/features/accounts/exports/account-export-types";
import {
  EXPORT_INTERVAL_MINUTES,
  EXPORT_LINK_HOURS,
} from "~/features/accounts/exports/account-export-types";
import { NoScriptRefresh } from "~/ui/no-script-refresh";
import { useRevalidateWhile } from "~/ui/use-revalidate-while";

/** How often the tab looks again while an export is being built (with JavaScript; without, the page refreshes itself). */
export const EXPORT_POLL_INTERVAL_MS = 2000;
/** With JavaScript, it stops looking after this many tries (a reload shows the state again). */
const EXPORT_POLL_MAX_ATTEMPTS = 150;
const NO_SCRIPT_REFRESH_SECONDS = 3;

/** A moment in words that read the same on the server and in the browser (UTC). */
function when(iso: string): string {
  const date = new Date(iso);
  const day = date.toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
  const time = date.toLocaleTimeString("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
  });
  return `${day}, ${time} UTC`;
}

function size(bytes: number | null): string {
  if (bytes === null) return "";
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The Your data tab: what an export holds, a button that asks for one (a
 * plain form post, so it works without JavaScript), and the state of the
 * latest export with its download link while the link works.
 */
export function DataExportPanel({
  latest,
  nextAllowedAt,
  action = "/settings/export",
}: {
  latest: AccountExportView | null;
  nextAllowedAt: string | null;
  action?: string;
}) {
  const pending = latest?.status === "pending";
  useRefreshWhilePending(pending);
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction === action;
  return (
    <section
      aria-labelledby="data-export-heading"
      className="space-y-5"
      data-testid="data-export-panel"
    >
      {pending ? <NoScriptRefresh seconds={NO_SCRIPT_REFRESH_SECONDS} /> : null}
      <div className="space-y-2">
        <h2 id="data-export-heading" className="text-lg font-semibold text-slate-900">
          Download your data
        </h2>
        <p className="text-sm text-slate-600">
          One zip file with everything of yours that we keep. We build it in the background and
          email you a link when it is ready; the link works for {EXPORT_LINK_HOURS} hours, then the
          file is deleted.
        </p>
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">
          <li>
            <code>account.json</code>: your profile, your consent record and the platforms you
            connected (by name only, never a key)
          </li>
          <li>
            every image of yours, exactly as stored: your uploads, styles, optimized versions, the
            files you sell and their previews
          </li>
          <li>
            <code>listings.json</code>, <code>sales.json</code> (no buyer&apos;s personal data) and{" "}
            <code>payouts.json</code>
          </li>
        </ul>
      </div>

      <LatestExport latest={latest} />

      {pending ? null : nextAllowedAt ? (
        <p className="text-sm text-slate-600" data-testid="data-export-wait">
          You can ask for one export an hour: the next one from {when(nextAllowedAt)}.
        </p>
      ) : (
        <Form method="post" action={action} replace>
          <input type="hidden" name="intent" value="export" />
          <button type="submit" className="btn-primary" disabled={submitting}>
            {submitting ? "Asking…" : latest ? "Ask for a new export" : "Ask for an export"}
          </button>
          <p className="mt-2 text-xs text-slate-500">
            One export an hour ({EXPORT_INTERVAL_MINUTES} minutes between two).
          </p>
        </Form>
      )}
    </section>
  );
}

function LatestExport({ latest }: { latest: AccountExportView | null }) {
  if (!latest) {
    return (
      <p className="text-sm text-slate-600" data-testid="data-export-state">
        You have not asked for an export yet.
      </p>
    );
  }
  const asked = `Asked for ${when(latest.createdAt)}.`;
  return (
    <div
      className="rounded-lg border border-slate-200 p-4"
      data-testid="data-export-state"
      role="status"
      aria-live="polite"
    >
      {latest.status === "pending" ? (
        <p className="text-sm text-slate-700">
          <span className="font-medium">Your export is being prepared.</span> {asked} We will email
          you when it is ready.
        </p>
      ) : latest.status === "failed" ? (
        <p className="text-sm text-red-700">
          <span className="font-medium">Your export failed.</span> {latest.error ?? ""} {asked}
        </p>
      ) : latest.url && latest.expiresAt ? (
        <div className="space-y-2 text-sm text-slate-700">
          <p>
            <span className="font-medium">Your export is ready</span> ({size(latest.bytes)}).{" "}
            {asked}
          </p>
          <a
            href={latest.url}
            className="btn-secondary inline-flex"
            download
            data-testid="data-export-download"
          >
            Download your data (zip)
          </a>
          <p className="text-xs text-slate-500">The link works until {when(latest.expiresAt)}.</p>
        </div>
      ) : (
        <p className="text-sm text-slate-700">
          <span className="font-medium">Your latest export has expired</span> and its file was
          deleted. {asked}
        </p>
      )}
    </div>
  );
}

/** With JavaScript: look again every 2 s while the export is being built, up to EXPORT_POLL_MAX_ATTEMPTS times. */
function useRefreshWhilePending(pending: boolean) {
  useRevalidateWhile(pending, {
    intervalMs: EXPORT_POLL_INTERVAL_MS,
    // It stops on the tick after the last look.
    limit: EXPORT_POLL_MAX_ATTEMPTS + 1,
  });
}
