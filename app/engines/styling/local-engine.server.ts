import sharp, { type Sharp } from "sharp";
import type { StyleId } from "~/lib/styles";
import { encodeStyledImage } from "~/engines/styling/ai-disclosure.server";
import type {
  StyleEngine,
  StyleResult,
  StylizeOptions,
} from "~/engines/styling/style-engine.server";
import { StyleEngineError } from "~/engines/styling/style-engine-error.server";
import { renderAnime } from "~/engines/styling/styles/anime.server";
import { renderCartoon } from "~/engines/styling/styles/cartoon.server";
import { renderFantasy } from "~/engines/styling/styles/fantasy.server";
import { renderProfessional } from "~/engines/styling/styles/professional.server";
import type { StyleRender } from "~/engines/styling/styles/style-render.server";
import { decodePicture, sceneOf } from "~/engines/styling/vision/scene.server";

/**
 * Bump when a style's look changes: it is part of the tool name written into
 * every image and of the landing page's sample file names (so samples are
 * remade once after an upgrade).
 */
export const LOCAL_ENGINE_VERSION = 5;

/** The long edge of the local engine's images at most: an upload up to this size keeps its size. */
export const LOCAL_MAX_EDGE = 4096;

const RENDERERS: Record<StyleId, StyleRender> = {
  professional: renderProfessional,
  cartoon: renderCartoon,
  anime: renderAnime,
  fantasy: renderFantasy,
};

/**
 * The built-in styling engine: offline, no keys, deterministic (the same
 * input gives the same bytes). A person mask (MediaPipe selfie segmentation)
 * and face landmarks (MediaPipe face mesh and iris), run in a worker thread,
 * guide hand-made looks that compose the person and a new background (see
 * styles/). The result keeps the upload's size up to LOCAL_MAX_EDGE on its
 * long edge (the professional headshot is enlarged to that when its frame is
 * smaller) and carries the AI disclosure.
 */
export function createLocalEngine(): StyleEngine {
  return {
    id: "local",
    async stylize(input: Buffer, style: StyleId, options?: StylizeOptions): Promise<StyleResult> {
      const render = RENDERERS[style];
      if (!render) throw new StyleEngineError("This style is not available.", false);
      if (options?.signal?.aborted) throw new StyleEngineError("Styling was cancelled.", true);
      const picture = await decodePicture(input, LOCAL_MAX_EDGE);
      const scene = await sceneOf(picture.rgb, picture.width, picture.height).catch(
        (error: unknown) => {
          throw new StyleEngineError("The style engine's models could not run.", true, {
            cause: error,
          });
        },
      );
      if (options?.signal?.aborted) throw new StyleEngineError("Styling was cancelled.", true);
      const { image, method, native } = await render(scene, {
        inputLongEdge: Math.min(
          LOCAL_MAX_EDGE,
          Math.max(picture.inputWidth, picture.inputHeight, picture.width, picture.height),
        ),
        maxEdge: LOCAL_MAX_EDGE,
      });
      const pixels = withSeed(
        sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } }),
        options?.seed,
      );
      // The local engine's images are made on the server's own CPU: it skips the JPEG
      // optimisation pass (see encodeStyledImage), worth a little file size, not look.
      const encoded = await encodeStyledImage(
        pixels,
        `Selfie Studio local style engine v${LOCAL_ENGINE_VERSION} (${style}${options?.seed === undefined ? "" : `, seed ${options.seed}`}), guided by MediaPipe person segmentation and face landmarks${method ? `; ${method}` : ""}`,
        { optimiseCoding: false },
      );
      return { ...encoded, native: native ?? { width: encoded.width, height: encoded.height } };
    },
  };
}

/**
 * A seeded run's small deterministic variation: a brightness shift (one of nine
 * steps within ±2 %) and a hue turn (one of nine within ±4°) picked by the seed,
 * so a re-roll usually gives a different file (two seeds share both steps one
 * time in 81) and the same seed makes the same bytes again. No seed: unchanged.
 */
function withSeed(pixels: Sharp, seed: number | undefined): Sharp {
  if (seed === undefined) return pixels;
  const step = (n: number) => ((n % 9) - 4) / 200;
  return pixels.modulate({ brightness: 1 + step(seed), hue: Math.round(step(seed >>> 4) * 200) });
}
