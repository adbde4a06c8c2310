import { Form, Link } from "@remix-run/react";
import type { FormEvent } from "react";
import { dashboardUrl } from "~/features/studio/dashboard-url";
import type { ImageJson } from "~/features/studio/types";
import { StudioImage } from "~/features/studio/components/studio-image";

/** The creator's uploaded originals: pick one to style, or delete one with everything made from it. */
export function UploadsStrip({ images, selectedId }: { images: ImageJson[]; selectedId: string | null }) {
  if (images.length === 0) return null;
  const confirmDelete = (event: FormEvent<HTMLFormElement>) => {
    if (!window.confirm("Delete this selfie and every style made from it?")) event.preventDefault();
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
              to={dashboardUrl({ image: image.id, step: "style" })}
              aria-current={image.id === selectedId ? "true" : undefined}
              className={`block overflow-hidden rounded-lg ring-offset-2 ${image.id === selectedId ? "ring-2 ring-brand-600" : ""}`}
            >
              <StudioImage src={image.originalUrl} alt={`Upload ${images.length - index}: style this selfie`} className="h-24 w-24 object-cover" />
            </Link>
            <Form method="post" action="/dashboard" onSubmit={confirmDelete}>
              <input type="hidden" name="intent" value="delete-image" />
              <input type="hidden" name="id" value={image.id} />
              <button type="submit" className="text-xs text-red-700 hover:underline" aria-label={`Delete upload ${images.length - index}`}>
                Delete
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
