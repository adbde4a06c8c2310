/**
 * What buyers read of how an image was made, from the IPTC Digital Source Type
 * its file states: "AI-generated" when a generative model made it or part of
 * it, "AI-edited" for the built-in engine's composites (the photo's own pixels
 * with made backgrounds, outlines and grades).
 */
export type AiLabel = "AI-generated" | "AI-edited";

/** A sentence saying what the label means (its title and the listing page's detail). */
export const AI_LABEL_MEANING: Record<AiLabel, string> = {
  "AI-generated": "Made by a generative AI model from the creator's photo.",
  "AI-edited": "The creator's photo, edited with automated tools: cut out, restyled and composed.",
};
