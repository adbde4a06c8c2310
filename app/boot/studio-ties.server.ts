import type { FeatureTies } from "~/infra/call-context.server";
import {
  activeListingForStylizedImage,
  followerCount,
  withdrawListingsForStylizedImage,
} from "~/features/market/public.server";
import { removePublishingArtifacts } from "~/features/publishing/public.server";

/**
 * What features hand each other, as every call carries it (`ctx.ties`): the
 * studio's ties to the market and publishing. A stylized image that goes
 * first has its marketplace listings withdrawn (sold copies stay downloadable)
 * and what publishing made of it removed; its price, where the studio answers
 * it, is its live listing's when it has one; the account answers its creator's
 * follower count, kept by the market. The site (site-app.server.ts) and
 * the job worker (job-kinds.server.ts) hand it to the contexts they build.
 */
export function featureTies(): FeatureTies {
  return {
    studio: {
      beforeStylizedDelete: async (ctx, stylizedImageId) => {
        await withdrawListingsForStylizedImage(ctx.db, stylizedImageId, {
          store: ctx.files,
          now: ctx.now,
        });
        await removePublishingArtifacts(ctx.db, ctx.files, stylizedImageId);
      },
      listedPriceCents: async (ctx, stylizedImageId) =>
        (await activeListingForStylizedImage(ctx.db, stylizedImageId))?.price_cents ?? null,
    },
    accounts: {
      followerCount: (ctx, userId) => followerCount(ctx.db, userId),
    },
  };
}
