import type { StyleId } from "~/lib/styles";
import { getConfig, type Config } from "../config.server";
import { createFalEngine } from "./fal-engine.server";
import { falStyleTable } from "./fal-models.server";
import { createLocalEngine } from "./local-engine.server";

export { StyleEngineError } from "./style-engine-error.server";

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

/**
 * The engine this process styles with: fal.ai when FAL_KEY is set, otherwise
 * the local engine (offline, no keys). Chosen per call, so a test or a
 * restart with a different configuration picks up the change.
 */
export function getStyleEngine(config: Config = getConfig()): StyleEngine {
  if (config.FAL_KEY) {
    return createFalEngine({
      credentials: config.FAL_KEY,
      styles: falStyleTable(config),
      timeoutMs: config.FAL_TIMEOUT_SECONDS * 1000,
    });
  }
  return createLocalEngine();
}
