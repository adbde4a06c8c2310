import type { StyleId } from "~/lib/styles";

export { StyleEngineError } from "~/engines/styling/style-engine-error.server";

export interface StyleResult {
  data: Buffer;
  format: "png" | "jpg" | "webp";
  width: number;
  height: number;
}

export interface StyleEngine {
  readonly id: "local" | "fal";
  /** input: any image buffer sharp can read (the stored original: upright, metadata already stripped). */
  stylize(input: Buffer, style: StyleId, options?: { signal?: AbortSignal }): Promise<StyleResult>;
}
