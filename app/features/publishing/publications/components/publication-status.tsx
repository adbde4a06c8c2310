import type { PublicationStatus } from "~/features/publishing/types";
import { STATUS_LABELS } from "~/features/publishing/types";
import { PlatformBadge } from "~/features/publishing/components/platform-badge";
import type { PublicationView } from "~/features/publishing/components/types";
import { findPlatform } from "~/features/publishing/platforms";

/** A stock agency's row: its model release (download it, or add one), which the agency needs before a submission. */
function ReleaseLinks({ publication }: { publication: PublicationView }) {
  if (
    findPlatform(publication.id)?.capability !== "sftpSubmission" ||
    publication.modelReleaseUrl === undefined
  )
    return null;
  const page = publication.stylizedImageId
    ? `/studio/release?image=${encodeURIComponent(publication.stylizedImageId)}`
    : null;
  return (
    <p className="text-xs text-slate-600" data-testid="publication-release">
      {publication.modelReleaseUrl ? (
        <>
          <a
            href={publication.modelReleaseUrl}
            download
            className="font-semibold text-brand-700 underline"
          >
            Model release (PDF)
          </a>
          {" · attach it to the file in the contributor portal (Releases). "}
          {page ? (
            <a href={page} className="underline">
              Change it
            </a>
          ) : null}
        </>
      ) : page ? (
        <a href={page} className="font-semibold text-brand-700 underline">
          Add a model release
        </a>
      ) : (
        "No model release yet."
      )}
    </p>
  );
}

const PILL: Record<PublicationStatus, string> = {
  live: "bg-emerald-100 text-emerald-800",
  ready_to_mint: "bg-sky-100 text-sky-800",
  export_ready: "bg-sky-100 text-sky-800",
  submitted: "bg-indigo-100 text-indigo-800",
  queued: "bg-amber-100 text-amber-800",
  needs_auth: "bg-orange-100 text-orange-800",
  failed: "bg-red-100 text-red-800",
  withdrawn: "bg-slate-200 text-slate-700",
};

export function StatusPill({ status }: { status: PublicationStatus }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${PILL[status]}`}
      data-testid="publication-status"
    >
      {STATUS_LABELS[status]}
    </span>
  );
}

/** What the creator can do next with one platform's result. */
function NextStep({ publication }: { publication: PublicationView }) {
  switch (publication.status) {
    case "live":
      return publication.url ? (
        <a
          href={publication.url}
          target="_blank"
          rel="noopener noreferrer"
          className="btn-secondary px-3 py-1.5 text-xs"
        >
          View listing
        </a>
      ) : null;
    case "ready_to_mint":
    case "export_ready":
      return publication.downloadUrl ? (
        <a href={publication.downloadUrl} download className="btn-secondary px-3 py-1.5 text-xs">
          {publication.status === "ready_to_mint" ? "Download mint kit" : "Download export package"}
        </a>
      ) : null;
    case "needs_auth":
      return publication.authUrl ? (
        <a href={publication.authUrl} className="btn-primary px-3 py-1.5 text-xs">
          Connect
        </a>
      ) : null;
    default:
      return null;
  }
}

/** One row per platform: its name, honest state, and the next step (view, download, connect). */
export function PublicationList({ publications }: { publications: PublicationView[] }) {
  return (
    <ul
      className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white"
      data-testid="publication-list"
    >
      {publications.map((publication) => (
        <li
          key={publication.id}
          className="flex flex-wrap items-center gap-3 px-4 py-3"
          data-testid={`publication-${publication.id}`}
          data-status={publication.status}
        >
          <PlatformBadge platformId={publication.id} size="sm" />
          <div className="min-w-0 flex-1">
            <p className="text-sm font-medium text-slate-900">{publication.name}</p>
            {publication.status === "queued" ? (
              <p className="text-xs text-slate-500">
                Working on it…{publication.error ? ` ${publication.error}` : ""}
              </p>
            ) : publication.error &&
              (publication.status === "failed" || publication.status === "needs_auth") ? (
              <p className="text-xs text-red-700">{publication.error}</p>
            ) : publication.status === "submitted" ? (
              <p className="text-xs text-slate-600" data-testid="publication-submitted">
                Uploaded to your contributor account; {publication.name} reviews it before it goes
                on sale. In the contributor portal, attach the model release to the file, tick
                &ldquo;Created using generative AI tools&rdquo; if a generative model made it, then
                submit it.
              </p>
            ) : null}
            {publication.note ? (
              <p className="text-xs text-slate-500" data-testid="publication-note">
                {publication.note}
              </p>
            ) : null}
            <ReleaseLinks publication={publication} />
          </div>
          <StatusPill status={publication.status} />
          <NextStep publication={publication} />
        </li>
      ))}
    </ul>
  );
}
