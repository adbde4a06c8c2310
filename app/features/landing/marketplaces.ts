import { specPlatforms } from "~/features/publishing/platforms";
import type { Platform } from "~/features/publishing/platforms";

/**
 * The nine external platforms the landing page advertises, in the order it
 * shows them: read from the one platform registry (publishing/platforms.ts),
 * so the strip shows each one's real state as /pricing, /help and
 * /integrations do (Zora and Foundation closed).
 */
export type ExternalMarketplace = Platform;

export const EXTERNAL_MARKETPLACES: readonly ExternalMarketplace[] = specPlatforms();
