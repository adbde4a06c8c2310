import type { StyleId } from "~/lib/styles";
import type { Config } from "~/infra/config.server";
import type { KontextOptions } from "~/engines/fal/fal-inputs.server";
import { KONTEXT_MODEL } from "~/engines/fal/fal-inputs.server";

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
  /**
   * Kontext's own options when the style runs on the default model with the
   * app's options (no FAL_STYLES input or image field of the operator's): the
   * request is then built typed with fal's endpoint types. Otherwise `input`
   * (the operator's, which no typecheck can know) is sent as it is.
   */
  kontext?: KontextOptions;
}

/** The options every default style sends to Kontext. */
export const KONTEXT_OPTIONS: KontextOptions = { output_format: "jpeg", safety_tolerance: "2" };

/**
 * FLUX.1 Kontext [pro]: an instruction-following image editor that keeps the
 * person's identity, licensed for commercial use through fal.ai.
 */
export const DEFAULT_FAL_MODEL = KONTEXT_MODEL;

/**
 * What every instruction keeps, in the words of Black Forest Labs' Kontext
 * prompting guide: name what must not change ("while maintaining the same
 * facial features, hairstyle and expression", "the original composition"),
 * since Kontext otherwise feels free to re-cast the person or re-frame the shot.
 */
export const KEEP_THE_PERSON =
  "Keep the same person: the same face and facial features, face shape, skin tone, age, expression and hairstyle, so they are clearly recognisable. Keep the same position, scale, pose and framing, with the same camera angle and the same clothing.";

/**
 * Cartoon and anime draw the face itself in the style: without saying so,
 * Kontext tends to leave a photographic face on a drawn body.
 */
export const DRAW_THE_FACE_TOO =
  "Draw the whole picture in this style, the face included: the eyes, nose, mouth and hair are drawn in the style with the person's own shapes and proportions, not left as a photograph.";

/**
 * The per-style table: one model and one instruction per style, kept in this
 * one place. Each says "Change the style to ..." (or, for fantasy, what to add
 * around the person) rather than "transform the photo", which the guide warns
 * lets the model replace the subject.
 */
export const FAL_STYLE_DEFAULTS: Record<StyleId, FalStyleModel> = {
  professional: {
    model: DEFAULT_FAL_MODEL,
    prompt: `Change the style to a professional studio portrait photograph: soft, even studio lighting with a gentle key light and fill light, a plain light grey seamless studio backdrop behind the person, a tidy professional look. It stays a photograph, with natural skin texture. ${KEEP_THE_PERSON}`,
    input: KONTEXT_OPTIONS,
    imageField: "image_url",
    kontext: KONTEXT_OPTIONS,
  },
  cartoon: {
    model: DEFAULT_FAL_MODEL,
    prompt: `Change the style to a modern animated-film cartoon: bold, clean dark outlines, flat vibrant colours with simple soft shading, a simplified flat-colour background. ${DRAW_THE_FACE_TOO} ${KEEP_THE_PERSON}`,
    input: KONTEXT_OPTIONS,
    imageField: "image_url",
    kontext: KONTEXT_OPTIONS,
  },
  anime: {
    model: DEFAULT_FAL_MODEL,
    prompt: `Change the style to a Japanese anime illustration: clean line art, cel shading with a few flat tones, expressive eyes with bright catchlights, a bright saturated palette and a painted sky background. ${DRAW_THE_FACE_TOO} ${KEEP_THE_PERSON}`,
    input: KONTEXT_OPTIONS,
    imageField: "image_url",
    kontext: KONTEXT_OPTIONS,
  },
  fantasy: {
    model: DEFAULT_FAL_MODEL,
    prompt: `Change the background to a painted fantasy scene, a glowing aurora over a misty enchanted landscape, and add fantasy lighting around the person: a warm magical rim light along their outline and floating sparkles around them, never over the face. The person stays as they are in the photo. ${KEEP_THE_PERSON}`,
    input: KONTEXT_OPTIONS,
    imageField: "image_url",
    kontext: KONTEXT_OPTIONS,
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
      kontext:
        model === DEFAULT_FAL_MODEL &&
        !override?.input &&
        (override?.imageField ?? defaults.imageField) === "image_url"
          ? defaults.kontext
          : undefined,
    };
  }
  return table;
}
