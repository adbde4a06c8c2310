import { getConfig, type Config } from "~/infra/config.server";
import { createFalEngine } from "~/engines/styling/fal-engine.server";
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
