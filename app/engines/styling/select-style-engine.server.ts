import { getConfig, type Config } from "~/infra/config.server";
import { createFalEngine, storageExpirySeconds } from "~/engines/styling/fal-engine.server";
import { falStyleTable } from "~/engines/styling/fal-models.server";
import { createLocalEngine } from "~/engines/styling/local-engine.server";
import type { StyleEngine } from "~/engines/styling/style-engine.server";

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

/** Which engine styles, as the consent text and the privacy page describe it: fal.ai with how long it keeps the uploaded photo, or this server. */
export type StyleEngineInUse = { kind: "local" } | { kind: "fal"; photoExpirySeconds: number };

export function styleEngineInUse(config: Config = getConfig()): StyleEngineInUse {
  if (config.FAL_KEY)
    return {
      kind: "fal",
      photoExpirySeconds: storageExpirySeconds(config.FAL_TIMEOUT_SECONDS * 1000),
    };
  return { kind: "local" };
}
