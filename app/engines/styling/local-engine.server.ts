import type { StyleId } from "~/lib/styles";
import { encodeStyledImage } from "~/engines/styling/ai-disclosure.server";
import { pictureOf, type RawImage } from "~/engines/styling/raw-image.server";
import type { StyleEngine, StyleResult } from "~/engines/styling/style-engine.server";
import { StyleEngineError } from "~/engines/styling/style-engine-error.server";
import { renderAnime } from "~/engines/styling/styles/anime.server";
import { renderCartoon } from "~/engines/styling/styles/cartoon.server";
import { renderFantasy } from "~/engines/styling/styles/fantasy.server";
import { renderProfessional } from "~/engines/styling/styles/professional.server";

/**
 * Bump when a style's look changes: it is part of the tool name written into
 * every image and of the landing page's sample file names (so samples are
 * remade once after an upgrade).
 */
export const LOCAL_ENGINE_VERSION = 2;

const RENDERERS: Record<StyleId, (input: Buffer) => Promise<RawImage>> = {
  professional: renderProfessional,
  cartoon: renderCartoon,
  anime: renderAnime,
  fantasy: renderFantasy,
};

/**
 * The built-in styling engine: offline, no keys, deterministic (the same
 * input gives the same bytes). Each style is a small pipeline of libvips
 * operations and JavaScript passes over raw pixels; the result is at most
 * 1024 px on its long edge and carries the AI disclosure.
 */
export function createLocalEngine(): StyleEngine {
  return {
    id: "local",
    async stylize(
      input: Buffer,
      style: StyleId,
      options?: { signal?: AbortSignal },
    ): Promise<StyleResult> {
      const render = RENDERERS[style];
      if (!render) throw new StyleEngineError("This style is not available.", false);
      if (options?.signal?.aborted) throw new StyleEngineError("Styling was cancelled.", true);
      const pixels = await render(input);
      // The local engine's images are made on the server's own CPU: it skips the JPEG
      // optimisation pass (see encodeStyledImage), worth a little file size, not look.
      return encodeStyledImage(
        pictureOf(pixels),
        `Selfie Studio local style engine v${LOCAL_ENGINE_VERSION} (${style})`,
        { optimiseCoding: false },
      );
    },
  };
}
