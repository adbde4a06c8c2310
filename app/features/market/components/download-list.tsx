export interface DownloadItem {
  style: string;
  filename: string;
  downloadUrl: string;
  title?: string;
  licenseUrl?: string;
}

/** Purchased files: filename, 'Style: {style}', Download (new tab) and the license. */
export function DownloadList({ downloads }: { downloads: DownloadItem[] }) {
  return (
    <ul className="divide-y divide-slate-200" data-testid="downloads">
      {downloads.map((download) => (
        <li key={download.downloadUrl} className="flex flex-wrap items-center justify-between gap-3 py-3">
          <div className="min-w-0">
            <p className="truncate font-medium text-slate-900" data-testid="download-filename">
              {download.filename}
            </p>
            <p className="text-sm text-slate-600">Style: {download.style}</p>
          </div>
          <div className="flex items-center gap-2">
            {download.licenseUrl ? (
              <a href={download.licenseUrl} className="btn-ghost" data-testid="license-link">
                License
              </a>
            ) : null}
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
          </div>
        </li>
      ))}
    </ul>
  );
}
