/**
 * The dashboard's state lives in its URL, so every step works without
 * JavaScript: ?image= (the original held in the pipeline), ?styled= (the
 * stylized image held), ?step=, ?pending= with ?poll= (a style being made
 * while the page refreshes itself), ?preset= and ?panel=; ?confirmDelete=
 * asks before a creation or an upload is deleted (the panel that stands in
 * for the dialog without JavaScript; see confirmDeleteHref).
 */

export const PIPELINE_STEPS = ["upload", "style", "optimize", "market"] as const;
export type PipelineStep = (typeof PIPELINE_STEPS)[number];
export const PIPELINE_LABELS: Record<PipelineStep, string> = {
  upload: "Upload",
  style: "Style",
  optimize: "Optimize",
  market: "Market",
};

export const DASHBOARD_PARAMS = [
  "image",
  "styled",
  "step",
  "pending",
  "poll",
  "preset",
  "panel",
] as const;
export type DashboardParam = (typeof DASHBOARD_PARAMS)[number];

/** A dashboard address (always /dashboard: the index route's actions would be posted to /?index). */
export function dashboardUrl(
  state: Partial<Record<DashboardParam, string | number | null | undefined>> = {},
): string {
  const params = new URLSearchParams();
  for (const key of DASHBOARD_PARAMS) {
    const value = state[key];
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `/dashboard?${search}` : "/dashboard";
}

/**
 * The id of the box holding the pipeline's steps and the open step. The
 * dashboard's step links and the redirects after its forms end with
 * #pipeline, so the browser opens the page at the step the creator is on
 * (on a phone the stat cards above it fill the first screen), with or
 * without JavaScript.
 */
export const PIPELINE_ANCHOR = "pipeline";

/** The same dashboard address, opening at the pipeline (any other fragment is replaced). */
export function atPipeline(url: string): string {
  return `${url.split("#")[0]}#${PIPELINE_ANCHOR}`;
}
