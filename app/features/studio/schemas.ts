import { z } from "zod";
import {
  IMAGE_FORMATS,
  OPTIMIZATION_DEFAULTS,
  QUALITY_MAX,
  QUALITY_MIN,
  QUALITY_STEP,
  RESOLUTIONS,
} from "~/features/studio/optimize/optimization";
import { STYLE_IDS } from "~/lib/styles";

/**
 * The studio's inputs, one schema each, shared by the JSON API, the dashboard's
 * forms (through conform, so they work without JavaScript) and the browser.
 */

export const stylizeSchema = z.object({
  /** The original image's id. */
  id: z.string({ error: "Choose an image to style" }).trim().min(1, "Choose an image to style"),
  style: z.enum(STYLE_IDS, { error: `Choose one of the styles: ${STYLE_IDS.join(", ")}` }),
});
export type StylizeInput = z.infer<typeof stylizeSchema>;

const qualityMessage = `Quality must be a whole number from ${QUALITY_MIN} to ${QUALITY_MAX} in steps of ${QUALITY_STEP}`;

/**
 * Optimization settings (POST /api/images/optimize). Quality, format and
 * resolution take OPTIMIZATION_DEFAULTS when left out; a switch left out is off,
 * as an unticked checkbox is.
 */
export const optimizeSchema = z.object({
  /** The stylized image's id. */
  imageId: z.string({ error: "Choose a stylized image" }).trim().min(1, "Choose a stylized image"),
  quality: z.coerce
    .number({ error: qualityMessage })
    .int(qualityMessage)
    .min(QUALITY_MIN, qualityMessage)
    .max(QUALITY_MAX, qualityMessage)
    .multipleOf(QUALITY_STEP, qualityMessage)
    .default(OPTIMIZATION_DEFAULTS.quality),
  format: z
    .enum(IMAGE_FORMATS, { error: `Format must be one of ${IMAGE_FORMATS.join(", ")}` })
    .default(OPTIMIZATION_DEFAULTS.format),
  resolution: z
    .enum(RESOLUTIONS, { error: `Resolution must be one of ${RESOLUTIONS.join(", ")}` })
    .default(OPTIMIZATION_DEFAULTS.resolution),
  watermark: z.boolean({ error: "watermark must be true or false" }).default(false),
  socialOptimized: z.boolean({ error: "socialOptimized must be true or false" }).default(false),
});
export type OptimizeInput = z.infer<typeof optimizeSchema>;

/** A stylized or original image addressed by id (route params, delete forms). */
export const idSchema = z.object({ id: z.string().trim().min(1, "Missing id") });
