import { Link, useFetcher } from "@remix-run/react";
import { useState } from "react";
import { atPipeline, dashboardUrl } from "~/features/studio/workspace/dashboard-url";
import type { ImageJson, StylizedImageJson } from "~/features/studio/types";
import type { StyleId } from "~/lib/styles";
import { isStyleId, STYLES, styleName } from "~/lib/styles";
import { GeneratingOverlay } from "~/features/studio/styles/components/generating-overlay";
import { StudioImage } from "~/features/studio/images/components/studio-image";
import { useHydrated } from "~/ui/use-hydrated";
import { useDemoFigures } from "~/ui/demo-figures";
import { Illustrative } from "~/ui/illustrative";
import { FaceConsentForm } from "~/features/privacy/components/face-consent-form";

const PRO_TIPS = [
  "Use a sharp, well-lit photo where your face is clearly visible.",
  "Face the camera and keep your face near the middle of the frame.",
  "Professional suits LinkedIn and resumes; cartoon and anime sell well as avatars.",
  "Every style is a separate image you can optimize and sell: try more than one.",
];

/**
 * The style generator: the original's thumbnail, four style
 * cards with description (with DEMO_FIGURES on, the spec's earning-range and
 * demand badges too, labelled illustrative; off, no invented figures), Generate, the
 * progress overlay and pro tips. Generate posts to the dashboard's action (with
 * JavaScript through a fetcher, the page staying put); the dashboard then
 * waits for the style (useStyleInProgress), and moves on when it ends.
 */
export function StyleGenerator({
  image,
  pending,
  consent,
  engine = "local",
}: {
  image: ImageJson | null;
  /** The consent to face processing: without it, its form stands where Generate would (absent: given). */
  consent?: { given: boolean; paragraphs: string[]; outdated?: boolean };
  /** The engine that styles now: the progress overlay says how long it usually takes. */
  engine?: "local" | "fal";
  /** The style in progress the page waits for (the dashboard reloads its data until it ends). */
  pending: StylizedImageJson | null;
}) {
  const hydrated = useHydrated();
  const demoFigures = useDemoFigures();
  const styling = useFetcher();
  const [selected, setSelected] = useState<StyleId | null>(null);

  if (!image) {
    return (
      <section className="card p-6 text-center" data-testid="style-generator">
        <h2 className="text-lg font-semibold text-slate-900">Choose your AI style</h2>
        <p className="mt-2 text-slate-600">
          Please upload an image first, then pick one of the four styles.
        </p>
        <Link to={atPipeline(dashboardUrl({ step: "upload" }))} className="btn-primary mt-4">
          Upload an image
        </Link>
      </section>
    );
  }

  // While the post is on its way, the style asked for; then the style the page waits for.
  const asked = styling.state !== "idle" ? styling.formData?.get("style") : null;
  const generating = isStyleId(asked) ? asked : null;
  const inProgress = generating ?? (pending ? pending.style : null);

  return (
    <section
      aria-labelledby="style-heading"
      className="card relative p-6"
      data-testid="style-generator"
    >
      {inProgress ? <GeneratingOverlay style={inProgress} engine={engine} /> : null}
      <div className="flex flex-col gap-6 lg:flex-row">
        <div className="lg:w-56">
          <h2 id="style-heading" className="text-lg font-semibold text-slate-900">
            Choose your AI style
          </h2>
          <StudioImage
            src={image.originalUrl}
            alt="Your original selfie"
            className="mt-3 aspect-square w-full rounded-xl object-cover"
          />
          <p className="mt-2 text-xs text-slate-500">
            Original · {image.width} × {image.height} px
          </p>
          {image.removesAt ? (
            <p className="mt-1 text-xs text-slate-500" data-testid="original-removal">
              This upload is removed on {formatDay(image.removesAt)}; the styles made from it stay.
            </p>
          ) : null}
        </div>
        {consent && !consent.given ? (
          <div className="flex-1">
            <FaceConsentForm
              paragraphs={consent.paragraphs}
              outdated={consent.outdated}
              action="/dashboard"
              back={dashboardUrl({ image: image.id, step: "style" })}
            />
          </div>
        ) : (
          <div className="flex-1">
            <styling.Form method="post" action="/dashboard">
              <input type="hidden" name="intent" value="stylize" />
              <input type="hidden" name="id" value={image.id} />
              <BackToStyleStep imageId={image.id} />
              <fieldset>
                <legend className="text-sm font-medium text-slate-700">
                  Pick one style to generate
                </legend>
                <div className="mt-3 grid gap-3 sm:grid-cols-2">
                  {STYLES.map((style) => (
                    <label
                      key={style.id}
                      className="relative flex cursor-pointer flex-col gap-2 rounded-xl border border-slate-200 p-4 transition-colors hover:border-brand-400 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500"
                    >
                      <span className="flex items-center gap-2">
                        <input
                          type="radio"
                          name="style"
                          value={style.id}
                          required
                          onChange={() => setSelected(style.id)}
                          className="choice-input"
                        />
                        <span className="font-semibold text-slate-900">{style.name}</span>
                      </span>
                      <span className="text-sm text-slate-600">{style.description}</span>
                      {demoFigures ? (
                        <span
                          className="flex flex-wrap items-center gap-2"
                          data-testid="style-figures"
                        >
                          <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800">
                            Earn {style.earningRange}
                          </span>
                          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800">
                            {style.demand} demand
                          </span>
                          <Illustrative text="Example figures" />
                        </span>
                      ) : null}
                    </label>
                  ))}
                </div>
              </fieldset>
              <button
                type="submit"
                className="btn-primary mt-4 w-full sm:w-auto"
                disabled={Boolean(inProgress) || (hydrated && !selected)}
              >
                {selected ? `Generate ${styleName(selected)} Style` : "Generate"}
              </button>
            </styling.Form>
            {/* All four at once: four styles, four cards, each with its own progress below. */}
            <styling.Form method="post" action="/dashboard" className="mt-3">
              <input type="hidden" name="intent" value="stylize-all" />
              <input type="hidden" name="id" value={image.id} />
              <BackToStyleStep imageId={image.id} />
              <button
                type="submit"
                className="btn-secondary w-full sm:w-auto"
                disabled={Boolean(inProgress) || styling.state !== "idle"}
              >
                All four styles
              </button>
              <p className="mt-1 text-xs text-slate-500">
                Makes one image in each style; counts as four styles today.
              </p>
            </styling.Form>
          </div>
        )}
      </div>
      <aside className="mt-6 rounded-xl bg-slate-50 p-4" aria-labelledby="pro-tips-heading">
        <h3 id="pro-tips-heading" className="text-sm font-semibold text-slate-900">
          Pro tips
        </h3>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-600">
          {PRO_TIPS.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </aside>
    </section>
  );
}

/** A day as the creator reads it, the same on the server and in the browser (UTC). */
function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** With JavaScript, a refusal comes back to the style step (without, to the dashboard as before). */
function BackToStyleStep({ imageId }: { imageId: string }) {
  const hydrated = useHydrated();
  return hydrated ? (
    <input type="hidden" name="back" value={dashboardUrl({ image: imageId, step: "style" })} />
  ) : null;
}
