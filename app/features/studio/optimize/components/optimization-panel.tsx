import { Form, Link } from "@remix-run/react";
import { useIntentPending } from "~/ui/forms/use-intent-pending";
import { useState } from "react";
import type { MouseEvent } from "react";
import { atPipeline, dashboardUrl } from "~/features/studio/workspace/dashboard-url";
import type {
  ImageFormat,
  OptimizationSettings,
  PresetId,
  Resolution,
} from "~/features/studio/optimize/optimization";
import {
  IMAGE_FORMATS,
  PRESETS,
  QUALITY_MAX,
  QUALITY_MIN,
  QUALITY_STEP,
  qualityLabel,
  RESOLUTIONS,
} from "~/features/studio/optimize/optimization";
import type { StylizedImageJson } from "~/features/studio/types";
import { styleName } from "~/lib/styles";
import { StudioImage } from "~/features/studio/images/components/studio-image";
import { StudioSwitch } from "~/features/studio/workspace/components/studio-switch";
import { useHydrated } from "~/ui/use-hydrated";

const FORMAT_LABELS: Record<ImageFormat, string> = { webp: "WebP", jpg: "JPG", png: "PNG" };
const RESOLUTION_LABELS: Record<Resolution, string> = {
  original: "Original size",
  "2048x2048": "2048 × 2048",
  "1200x1200": "1200 × 1200",
  "1080x1080": "1080 × 1080",
  "800x800": "800 × 800",
};
const PRESET_LABELS: Record<PresetId, string> = {
  web: "Web",
  social: "Social",
  print: "Print",
  marketplace: "Marketplace",
};

/** "85% · Good" — the slider's label. */
export function QualityReadout({ quality }: { quality: number }) {
  return (
    <span data-testid="quality-readout">
      {quality}% · {qualityLabel(quality)}
    </span>
  );
}

/** A labelled select of one setting (id `optimize-<name>`), each option shown by its label. */
function SelectField<T extends string>({
  name,
  label,
  value,
  options,
  labels,
  onChange,
}: {
  name: string;
  label: string;
  value: T;
  options: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T) => void;
}) {
  const id = `optimize-${name}`;
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value as T)}
        className="field-input"
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The optimization panel: quality slider, format, resolution,
 * watermark and social switches, and the four presets. A real form posted to
 * the dashboard (with or without JavaScript); presets are a GET form without
 * JavaScript and fill the fields in place with it.
 */
export function OptimizationPanel({
  image,
  initial,
  preset,
}: {
  image: StylizedImageJson;
  initial: OptimizationSettings;
  preset: PresetId | null;
}) {
  const hydrated = useHydrated();
  const [settings, setSettings] = useState<OptimizationSettings>(initial);
  const [activePreset, setActivePreset] = useState<PresetId | null>(preset);
  const submitting = useIntentPending("optimize");
  const update = (change: Partial<OptimizationSettings>) => {
    setSettings((current) => ({ ...current, ...change }));
    setActivePreset(null);
  };
  const applyPreset = (event: MouseEvent<HTMLButtonElement>, id: PresetId) => {
    if (!hydrated) return;
    event.preventDefault();
    setSettings((current) => ({ ...current, ...PRESETS[id] }));
    setActivePreset(id);
  };
  const back = dashboardUrl({ styled: image.id, step: "optimize" });

  return (
    <section
      aria-labelledby="optimize-heading"
      className="card p-6"
      data-testid="optimization-panel"
    >
      <div className="flex flex-col gap-6 lg:flex-row">
        <div className="lg:w-64">
          <h2 id="optimize-heading" className="text-lg font-semibold text-slate-900">
            Optimize your {styleName(image.style)} image
          </h2>
          <p className="mt-2 text-sm text-slate-600" data-testid="optimize-purpose">
            Optimize makes your own copy: the file you download and the one sent to the other
            platforms you publish to. Marketplace buyers always get the full-resolution styled
            image, at least 2,048 px on its long edge, never this copy.
          </p>
          <StudioImage
            src={image.optimizedUrl ?? image.styledUrl}
            fallbackSrc={image.originalUrl}
            alt={`Your ${styleName(image.style)} image`}
            className="mt-3 aspect-square w-full rounded-xl object-cover"
          />
          {image.optimizedUrl ? (
            <>
              <p className="mt-2 text-xs text-slate-600" data-testid="optimized-summary">
                Optimized: {image.format?.toUpperCase()} · quality {image.quality} · {image.width} ×{" "}
                {image.height} px · {Math.max(1, Math.round((image.bytes ?? 0) / 1024))} KB
              </p>
              {/* The link answers the file as an attachment (its name signed with it): saved, also without JavaScript. */}
              <a
                href={image.optimizedUrl}
                download
                className="btn-secondary mt-3 w-full"
                data-testid="optimized-download"
              >
                Download
                <span className="sr-only">: your optimized {styleName(image.style)} image</span>
              </a>
            </>
          ) : (
            <p className="mt-2 text-xs text-slate-500">Not optimized yet.</p>
          )}
        </div>

        <div className="flex-1 space-y-5">
          <Form method="get" action="/dashboard" aria-label="Presets">
            <input type="hidden" name="styled" value={image.id} />
            <input type="hidden" name="step" value="optimize" />
            <p className="field-label">Presets</p>
            <div className="mt-2 flex flex-wrap gap-2">
              {(Object.keys(PRESETS) as PresetId[]).map((id) => (
                <button
                  key={id}
                  type="submit"
                  name="preset"
                  value={id}
                  aria-pressed={activePreset === id}
                  onClick={(event) => applyPreset(event, id)}
                  className={activePreset === id ? "btn-primary" : "btn-secondary"}
                >
                  {PRESET_LABELS[id]}
                </button>
              ))}
            </div>
          </Form>

          <Form method="post" action="/dashboard" className="space-y-5">
            <input type="hidden" name="intent" value="optimize" />
            <input type="hidden" name="imageId" value={image.id} />
            <input type="hidden" name="back" value={back} />
            <div>
              <label htmlFor="optimize-quality" className="field-label flex justify-between">
                <span>Quality</span>
                <QualityReadout quality={settings.quality} />
              </label>
              <input
                id="optimize-quality"
                type="range"
                name="quality"
                min={QUALITY_MIN}
                max={QUALITY_MAX}
                step={QUALITY_STEP}
                value={settings.quality}
                onChange={(event) => update({ quality: Number(event.currentTarget.value) })}
                className="mt-2 w-full accent-brand-600"
              />
              {settings.format === "png" ? (
                <p className="mt-1 text-xs text-slate-500">
                  PNG is lossless: quality applies to WebP and JPG.
                </p>
              ) : null}
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                name="format"
                label="Format"
                value={settings.format}
                options={IMAGE_FORMATS}
                labels={FORMAT_LABELS}
                onChange={(format) => update({ format })}
              />
              <SelectField
                name="resolution"
                label="Resolution"
                value={settings.resolution}
                options={RESOLUTIONS}
                labels={RESOLUTION_LABELS}
                onChange={(resolution) => update({ resolution })}
              />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <StudioSwitch
                name="watermark"
                label="Watermark"
                description="A Selfie Studio mark across your copy. Off by default: it is your own file."
                checked={settings.watermark}
                onChange={(watermark) => update({ watermark })}
              />
              <StudioSwitch
                name="socialOptimized"
                label="Social optimization"
                description="Light sharpening, sRGB colour and progressive loading."
                checked={settings.socialOptimized}
                onChange={(socialOptimized) => update({ socialOptimized })}
              />
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <button type="submit" className="btn-primary" disabled={submitting}>
                {submitting ? "Optimizing…" : "Optimize Image"}
              </button>
              {image.optimizedUrl || image.status === "completed" ? (
                <Link
                  to={atPipeline(dashboardUrl({ styled: image.id, step: "market" }))}
                  className="btn-secondary"
                >
                  Market Now
                </Link>
              ) : null}
            </div>
          </Form>
        </div>
      </div>
    </section>
  );
}
