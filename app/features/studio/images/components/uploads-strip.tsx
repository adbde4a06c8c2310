import { Link, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { atPipeline, dashboardUrl } from "~/features/studio/workspace/dashboard-url";
import type { ImageJson } from "~/features/studio/types";
import { StudioImage } from "~/features/studio/images/components/studio-image";
import {
  CONFIRM_DELETE_PARAM,
  confirmDeleteHref,
  DeleteConfirmation,
  DeleteTrigger,
} from "~/features/studio/images/components/delete-confirmation";

/** How an upload compares with the creator's verified face (decision record 083), in a word or two. */
const LIKENESS_LABELS: Record<ImageJson["likeness"], string> = {
  self: "You",
  other: "Someone else",
  none: "No face",
  unverified: "Not compared",
};

const LIKENESS_HINTS: Record<ImageJson["likeness"], string> = {
  self: "The face in this upload matches your verified face.",
  other: "The face in this upload does not match your verified face.",
  none: "No face was found in this upload.",
  unverified:
    "Not compared with your face: verify your face in Settings, Privacy (uploads made before are not compared).",
};

/** The creator's uploaded originals: pick one to style, or delete one with everything made from it. */
export function UploadsStrip({
  images,
  selectedId,
}: {
  images: ImageJson[];
  selectedId: string | null;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  // With JavaScript the Delete button opens the dialog in place; without it, ?confirmDelete=<id> does.
  const [confirming, setConfirming] = useState<string | null>(null);
  useEffect(() => setConfirming(null), [location.key]);
  if (images.length === 0) return null;
  const targetId = confirming ?? new URLSearchParams(location.search).get(CONFIRM_DELETE_PARAM);
  const target = targetId ? images.find((image) => image.id === targetId) : undefined;
  const closeHref = confirmDeleteHref(location.search, null);
  const close = () => {
    if (confirming) setConfirming(null);
    else navigate(closeHref, { preventScrollReset: true });
  };
  return (
    <section aria-labelledby="uploads-heading" className="card p-4" data-testid="uploads-strip">
      <h2 id="uploads-heading" className="text-sm font-semibold text-slate-900">
        Your uploads
      </h2>
      <ul className="mt-3 flex gap-3 overflow-x-auto pb-1">
        {images.map((image, index) => (
          <li key={image.id} className="flex w-24 shrink-0 flex-col items-center gap-1">
            <Link
              to={atPipeline(dashboardUrl({ image: image.id, step: "style" }))}
              aria-current={image.id === selectedId ? "true" : undefined}
              className={`block overflow-hidden rounded-lg ring-offset-2 ${image.id === selectedId ? "ring-2 ring-brand-600" : ""}`}
            >
              <StudioImage
                src={image.originalUrl}
                alt={`Upload ${images.length - index}: style this selfie`}
                className="h-24 w-24 object-cover"
                sizes="96px"
                width={image.width}
                height={image.height}
              />
            </Link>
            <span
              className={`text-xs ${image.likeness === "other" ? "font-semibold text-amber-800" : "text-slate-500"}`}
              data-testid="upload-likeness"
              title={LIKENESS_HINTS[image.likeness]}
            >
              {LIKENESS_LABELS[image.likeness]}
            </span>
            <DeleteTrigger
              id={image.id}
              search={location.search}
              label={`Delete upload ${images.length - index}`}
              className="text-xs text-red-700 hover:underline"
              onOpen={setConfirming}
            />
          </li>
        ))}
      </ul>
      {target ? (
        <DeleteConfirmation
          title="Delete this selfie?"
          consequences={
            <p>
              This deletes the selfie and every style made from it, with their optimized versions;
              their listings leave the marketplace. It cannot be undone.
            </p>
          }
          intent="delete-image"
          id={target.id}
          closeHref={closeHref}
          onClose={close}
        />
      ) : null}
    </section>
  );
}
