import { tieStudio } from "~/features/studio/ties.server";
import {
  activeListingForStylizedImage,
  withdrawListingsForStylizedImage,
} from "~/features/market/public.server";
import { removePublishingArtifacts } from "~/features/publishing/public.server";

/**
 * The studio's ties to the market and publishing: a stylized image that goes
 * first has its marketplace listings withdrawn (sold copies stay downloadable)
 * and what publishing made of it removed; its price, where the studio answers
 * it, is its live listing's when it has one.
 */
export function tieStudioToOtherFeatures(): void {
  tieStudio({
    beforeStylizedDelete: async (ctx, stylizedImageId) => {
      await withdrawListingsForStylizedImage(ctx.db, stylizedImageId, {
        store: ctx.files,
        now: ctx.now,
      });
      await removePublishingArtifacts(ctx.db, ctx.files, stylizedImageId);
    },
    listedPriceCents: async (ctx, stylizedImageId) =>
      (await activeListingForStylizedImage(ctx.db, stylizedImageId))?.price_cents ?? null,
  });
}
