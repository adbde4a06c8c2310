import { Link } from "@remix-run/react";
import { findPlatform } from "~/features/publishing/platforms";
import type { PlatformId } from "~/features/publishing/platforms";

/** Beside a stock agency in the publishing forms: it needs the image's model release (a new tab, so the form keeps what was typed). */
export function ReleaseHint({ platformId, imageId }: { platformId: PlatformId; imageId: string }) {
  if (findPlatform(platformId)?.capability !== "sftpSubmission") return null;
  return (
    <span className="block text-xs text-slate-500" data-testid="release-hint">
      Needs a signed model release:{" "}
      <Link
        to={`/studio/release?image=${encodeURIComponent(imageId)}`}
        target="_blank"
        rel="noopener"
        className="font-semibold text-brand-700 underline"
      >
        Model release
        <span className="sr-only"> (opens in a new tab)</span>
      </Link>
    </span>
  );
}
