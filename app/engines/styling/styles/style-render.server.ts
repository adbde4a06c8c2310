import type { Rgb } from "~/engines/styling/styles/compose.server";
import type { Scene } from "~/engines/styling/vision/scene.server";

/**
 * The shape of a composed style: from the scene (pixels, mask, faces) to the
 * finished RGB image, with a note on how it was resized when it was.
 */
export interface RenderTarget {
  /** The upload's long edge, in pixels (the result is never smaller, up to `maxEdge`). */
  inputLongEdge: number;
  maxEdge: number;
}

export interface Rendered {
  image: Rgb;
  /** How the image was resized, when it was (written into the file's metadata). */
  method?: string;
  /** The size it was composed at, when it was then enlarged (the pixels really made). */
  native?: { width: number; height: number };
}

export type StyleRender = (scene: Scene, target: RenderTarget) => Promise<Rendered>;
