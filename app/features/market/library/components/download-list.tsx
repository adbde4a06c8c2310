import { LICENSES, type LicenseType } from "~/lib/license-terms";

export interface DownloadItem {
  style: string;
  filename: string;
  downloadUrl: string;
  title?: string;
  licenseUrl?: string;
  /** The licence tier bought (decision 101). */
  licenseType?: LicenseType;
  /** When the link stops working (ISO), and how many downloads it has left. */
  expiresAt?: string;
  downloadsLeft?: number;
}

/** Why a download link no longer works, or null while it does. */
export function spentLinkReason(
  download: Pick<DownloadItem, "expiresAt" | "downloadsLeft">,
  now = Date.now(),
): string | null {
  if (download.downloadsLeft !== undefined && download.downloadsLeft <= 0)
    return "Download limit reached";
  if (download.expiresAt && Date.parse(download.expiresAt) <= now) return "Link expired";
  return null;
}

/**
 * Purchased files: filename, 'Style: {style}', Download (new tab) and the
 * license. A used-up or expired link shows why, with the library (where a
 * fresh link can be emailed) instead of the Download button.
 */
export function DownloadList({ downloads, now }: { downloads: DownloadItem[]; now?: number }) {
  return (
    <ul className="divide-y divide-slate-200" data-testid="downloads">
      {downloads.map((download) => (
        <li
          key={download.downloadUrl}
          className="flex flex-wrap items-center justify-between gap-3 py-3"
        >
          <div className="min-w-0">
            <p className="truncate font-medium text-slate-900" data-testid="download-filename">
              {download.filename}
            </p>
            <p className="text-sm text-slate-600">
              Style: {download.style}
              {download.licenseType ? (
                <span data-testid="download-license">
                  {" "}
                  · {LICENSES[download.licenseType].tier} license
                </span>
              ) : null}
            </p>
          </div>
          <div className="flex items-center gap-2">
            {download.licenseUrl ? (
              <a href={download.licenseUrl} className="btn-ghost" data-testid="license-link">
                License
              </a>
            ) : null}
            <DownloadAction download={download} now={now} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function DownloadAction({ download, now }: { download: DownloadItem; now?: number }) {
  const spent = spentLinkReason(download, now);
  if (spent) {
    return (
      <span className="flex flex-wrap items-center gap-2 text-sm" data-testid="download-spent">
        <span className="font-medium text-slate-700">{spent}</span>
        <a href="/library" className="font-medium text-brand-700 underline">
          Get a fresh link from your library
        </a>
      </span>
    );
  }
  return (
    <a
      href={download.downloadUrl}
      target="_blank"
      rel="noopener noreferrer"
      className="btn-primary"
      data-testid="download-link"
      aria-label={`Download ${download.filename}`}
    >
      Download
    </a>
  );
}
