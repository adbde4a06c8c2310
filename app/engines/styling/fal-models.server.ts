import type { StyleId } from "~/lib/styles";
import type { Config } from "~/infra/config.server";

/** What to ask fal.ai for one style. */
export interface FalStyleModel {
  /** A fal endpoint id, e.g. "fal-ai/flux-pro/kontext". */
  model: string;
  /** The instruction sent as `prompt`. */
  prompt: string;
  /** Extra input fields sent to the model as they are. */
  input: Record<string, unknown>;
  /** The input field the uploaded photo goes in: one URL, or a list of URLs. */
  imageField: "image_url" | "image_urls";
}

/**
 * FLUX.1 Kontext [pro]: an instruction-following image editor that keeps the
 * person's identity, licensed for commercial use through fal.ai.
 */
export const DEFAULT_FAL_MODEL = "fal-ai/flux-pro/kontext";

const KEEP_IDENTITY =
  "Keep the same person clearly recognisable: the same face and facial features, skin tone, age, expression and hairstyle.";

/** The per-style table: one model and one instruction per style, kept in this one place. */
export const FAL_STYLE_DEFAULTS: Record<StyleId, FalStyleModel> = {
  professional: {
    model: DEFAULT_FAL_MODEL,
    prompt: `Turn this photo into a polished professional studio headshot: head and shoulders, soft even studio lighting, a plain light grey backdrop, smart business attire, natural skin texture. ${KEEP_IDENTITY}`,
    input: { output_format: "jpeg", safety_tolerance: "2" },
    imageField: "image_url",
  },
  cartoon: {
    model: DEFAULT_FAL_MODEL,
    prompt: `Redraw this photo as a cartoon in the style of a modern animated feature film: bold dark outlines, flat vibrant colours, simplified playful shapes. ${KEEP_IDENTITY} Keep the pose and clothing.`,
    input: { output_format: "jpeg", safety_tolerance: "2" },
    imageField: "image_url",
  },
  anime: {
    model: DEFAULT_FAL_MODEL,
    prompt: `Redraw this photo as a Japanese anime illustration: clean line art, cel shading with few flat tones, a bright saturated palette, a soft glow on the highlights. ${KEEP_IDENTITY} Keep the pose and clothing.`,
    input: { output_format: "jpeg", safety_tolerance: "2" },
    imageField: "image_url",
  },
  fantasy: {
    model: DEFAULT_FAL_MODEL,
    prompt: `Transform this photo into an epic fantasy portrait: a dramatic cinematic colour grade, magical glowing light, floating sparkles, an enchanted background. ${KEEP_IDENTITY}`,
    input: { output_format: "jpeg", safety_tolerance: "2" },
    imageField: "image_url",
  },
};

/**
 * The table in effect: the defaults, with FAL_MODEL replacing the model of
 * every style, then FAL_STYLES overriding any field per style. The default
 * extra input fields are Kontext's, so they are only sent to the default model.
 */
export function falStyleTable(
  config: Pick<Config, "FAL_MODEL" | "FAL_STYLES">,
): Record<StyleId, FalStyleModel> {
  const table = {} as Record<StyleId, FalStyleModel>;
  for (const [style, defaults] of Object.entries(FAL_STYLE_DEFAULTS) as Array<
    [StyleId, FalStyleModel]
  >) {
    const override = config.FAL_STYLES?.[style];
    const model = override?.model ?? config.FAL_MODEL ?? defaults.model;
    table[style] = {
      model,
      prompt: override?.prompt ?? defaults.prompt,
      input: { ...(model === defaults.model ? defaults.input : {}), ...override?.input },
      imageField: override?.imageField ?? defaults.imageField,
    };
  }
  return table;
}
