import { useEffect, useState } from "react";
import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
import { Spinner } from "~/ui/navigation-progress";
import { atPipeline, dashboardUrl } from "~/features/studio/workspace/dashboard-url";
import type { MarketState, StylizedImageJson } from "~/features/studio/types";
import { ShareLinks } from "~/ui/share-links";
import { isInProgress } from "~/features/studio/types";
import { styleName } from "~/lib/styles";
import { creationNames } from "~/features/studio/creation-names";
import { StudioImage } from "~/features/studio/images/components/studio-image";
import { PRODUCT_NAME } from "~/lib/product";
import {
  CONFIRM_DELETE_PARAM,
  confirmDeleteHref,
  DeleteConfirmation,
  DeleteTrigger,
} from "~/features/studio/images/components/delete-confirmation";

/** How wide the grid shows a creation (max-w-7xl with px-4; 1 / 2 / 3 / 4 columns with gap-4). */
export const CREATION_SIZES =
  "(min-width: 1280px) 300px, (min-width: 1024px) calc(33vw - 21px), (min-width: 640px) calc(50vw - 24px), calc(100vw - 32px)";

const ENGINE_NAMES: Record<StylizedImageJson["provider"], string> = {
  local: `Styled by ${PRODUCT_NAME}`,
  fal: "Styled with fal.ai",
};

/** The grid of the creator's stylized images, with optimize, market, sell and delete per image. */
/** A completed style's links to the next steps of the pipeline. */
const STEP_LINKS = [
  { label: "Optimize", step: "optimize", panel: undefined },
  { label: "Launch Marketing", step: "market", panel: "launch" },
  { label: "List for Sale", step: "market", panel: "sell" },
] as const;

export function ImageGrid({
  images,
  back,
  market = {},
}: {
  images: StylizedImageJson[];
  back: string;
  /** The price and listed state of each completed image (see DashboardData). */
  market?: Record<string, MarketState>;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  // With JavaScript the Delete button opens the dialog in place; without it, ?confirmDelete=<id> does.
  const [confirming, setConfirming] = useState<string | null>(null);
  useEffect(() => setConfirming(null), [location.key]);
  const fromUrl = new URLSearchParams(location.search).get(CONFIRM_DELETE_PARAM);
  const targetId = confirming ?? fromUrl;
  const target = targetId
    ? images.find((image) => image.id === targetId && !isInProgress(image))
    : undefined;
  const closeHref = confirmDeleteHref(location.search, null);
  // Each card's links keep their visible text and end with which image they act on (hidden text).
  const names = creationNames(images);
  const close = () => {
    if (confirming) setConfirming(null);
    else navigate(closeHref, { preventScrollReset: true });
  };

  return (
    <section aria-labelledby="creations-heading" data-testid="image-grid">
      <h2 id="creations-heading" className="text-lg font-semibold text-slate-900">
        Your AI creations
      </h2>
      {images.length === 0 ? (
        <p className="card mt-3 p-6 text-center text-slate-600">
          Nothing here yet. Upload a selfie and generate your first style.
        </p>
      ) : (
        <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {images.map((image) => (
            <li
              key={image.id}
              className="card flex flex-col overflow-hidden"
              data-testid="creation"
              data-id={image.id}
              data-status={image.status}
            >
              <div className="relative aspect-square bg-slate-100">
                {image.status === "completed" ? (
                  <StudioImage
                    src={image.optimizedUrl ?? image.styledUrl}
                    fallbackSrc={image.originalUrl}
                    alt={`${styleName(image.style)} style`}
                    // Fills the square frame whatever the picture's shape (the professional headshot is 4:5):
                    // laid out by its own width and height, a taller picture would make the grid row taller.
                    className="absolute inset-0 h-full w-full object-cover"
                    sizes={CREATION_SIZES}
                    width={image.width}
                    height={image.height}
                  />
                ) : image.status === "failed" ? (
                  <div className="flex h-full flex-col items-center justify-center gap-2 p-4 text-center">
                    <p className="font-semibold text-red-800">Generation failed</p>
                    <p className="text-sm text-red-700">{image.error}</p>
                  </div>
                ) : (
                  <div
                    className="flex h-full flex-col items-center justify-center gap-2 p-4 text-center"
                    role="status"
                  >
                    <Spinner className="h-8 w-8" />
                    <p className="text-sm font-medium text-slate-700">
                      {image.status === "processing" ? "Generating…" : "Waiting to start…"}
                    </p>
                  </div>
                )}
                <span className="absolute top-2 left-2 rounded-full bg-white/90 px-2 py-0.5 text-xs font-semibold text-slate-800">
                  {styleName(image.style)}
                </span>
                {image.optimizedUrl ? (
                  <span className="absolute top-2 right-2 rounded-full bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">
                    Optimized
                  </span>
                ) : null}
              </div>
              <div className="flex flex-1 flex-col gap-3 p-4">
                <p className="text-xs text-slate-500">
                  {ENGINE_NAMES[image.provider]}
                  {image.seed === null ? null : (
                    <span data-testid="creation-seed"> · Seed {image.seed}</span>
                  )}
                </p>
                {image.status === "completed" ? (
                  <p
                    className="flex flex-wrap items-center gap-2 text-sm"
                    data-testid="creation-market"
                  >
                    <span className="font-semibold text-slate-900">
                      ${market[image.id]?.price ?? image.price}
                    </span>
                    {market[image.id]?.listed ? (
                      <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">
                        Live on the marketplace
                      </span>
                    ) : (
                      <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
                        Not listed
                      </span>
                    )}
                  </p>
                ) : null}
                {image.status === "completed" && market[image.id]?.url ? (
                  <details className="text-sm" data-testid="creation-share">
                    <summary className="cursor-pointer font-medium text-brand-700">
                      Share<span className="sr-only">: {names.get(image.id)}</span>
                    </summary>
                    <div className="mt-2">
                      <ShareLinks
                        url={market[image.id]!.url!}
                        title={names.get(image.id) ?? "My portrait"}
                        name={names.get(image.id)}
                      />
                    </div>
                  </details>
                ) : null}
                <div className="mt-auto flex flex-wrap gap-2">
                  {image.status === "completed" && image.optimizedUrl ? (
                    // The optimized copy, saved as a file (the link answers it as an attachment).
                    <a
                      href={image.optimizedUrl}
                      download
                      className="btn-secondary px-3 py-1.5"
                      data-testid="creation-download"
                    >
                      Download
                      <span className="sr-only">: {names.get(image.id)}, optimized copy</span>
                    </a>
                  ) : null}
                  {image.status === "completed" ? (
                    <>
                      {STEP_LINKS.map(({ label, step, panel }) => (
                        <Link
                          key={label}
                          to={atPipeline(dashboardUrl({ styled: image.id, step, panel }))}
                          className="btn-secondary px-3 py-1.5"
                        >
                          {label}
                          <span className="sr-only">: {names.get(image.id)}</span>
                        </Link>
                      ))}
                    </>
                  ) : null}
                  {isInProgress(image) ? null : (
                    // A new seed of the same photo and style, as a new card; this one stays.
                    <Form method="post" action="/dashboard" className="contents">
                      <input type="hidden" name="intent" value="reroll" />
                      <input type="hidden" name="id" value={image.id} />
                      <input type="hidden" name="back" value={`/dashboard${location.search}`} />
                      <button type="submit" className="btn-secondary px-3 py-1.5">
                        Re-roll
                        <span className="sr-only">: {names.get(image.id)}, with a new seed</span>
                      </button>
                    </Form>
                  )}
                  {isInProgress(image) ? null : (
                    <DeleteTrigger
                      id={image.id}
                      search={location.search}
                      label={`Delete the ${names.get(image.id)}`}
                      className="btn-ghost px-3 py-1.5 text-red-700 hover:bg-red-50"
                      onOpen={setConfirming}
                    />
                  )}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      {target ? (
        <DeleteConfirmation
          title={`Delete this ${styleName(target.style)} image?`}
          consequences={<DeleteConsequences listed={market[target.id]?.listed ?? false} />}
          intent="delete-stylized"
          id={target.id}
          back={back}
          closeHref={closeHref}
          onClose={close}
        />
      ) : null}
    </section>
  );
}

/** What deleting a stylized image takes with it. */
function DeleteConsequences({ listed }: { listed: boolean }) {
  return (
    <>
      <p>This deletes the image and its optimized versions. It cannot be undone.</p>
      {listed ? (
        <p className="mt-2 font-medium text-red-800">Its listing leaves the marketplace.</p>
      ) : null}
    </>
  );
}
