import type { StyleId } from "~/lib/styles";

export { StyleEngineError } from "~/engines/styling/style-engine-error.server";

export interface StyleResult {
  data: Buffer;
  format: "png" | "jpg" | "webp";
  width: number;
  height: number;
  /** How the result was enlarged to keep the upload's detail (e.g. "lanczos3", "fal-ai/esrgan"); absent when it was not. */
  upscaledBy?: string | null;
  /**
   * The pixels the engine really made, before any enlargement (a stock agency
   * takes no enlarged file). Absent when unknown: then the result's own size
   * when nothing enlarged it.
   */
  native?: { width: number; height: number };
}

export interface StyleEngine {
  readonly id: "local" | "fal";
  /** input: any image buffer sharp can read (the stored original: upright, metadata already stripped). */
  stylize(input: Buffer, style: StyleId, options?: StylizeOptions): Promise<StyleResult>;
}

export interface StylizeOptions {
  signal?: AbortSignal;
  /** Makes a run reproducible: the same input, style and seed give the same result (a re-roll asks with a new one). */
  seed?: number;
}
