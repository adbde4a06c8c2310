import type { CallContext } from "~/infra/call-context.server";
import type { DeletionHooks } from "~/features/studio/images/deletion-hooks.server";

/**
 * What other features hold of the studio's stylized images, asked through
 * functions they hand in (app/boot/studio-ties.server.ts builds them, every
 * call carries them as `ctx.ties.studio`): the studio itself imports no other
 * feature.
 */
export interface StudioTies {
  /** Runs before a stylized image's rows go (withdraw its listings, remove what publishing made of it). */
  beforeStylizedDelete: (ctx: CallContext, stylizedImageId: string) => Promise<void>;
  /** The price of the stylized image's live listing, in cents; null when it is not listed. */
  listedPriceCents: (ctx: CallContext, stylizedImageId: string) => Promise<number | null>;
}

declare module "~/infra/call-context.server" {
  interface FeatureTies {
    /** The studio's ties to the market and publishing. */
    studio: StudioTies;
  }
}

/** The deletion hooks of a call: every stylized image going runs the other features' part first. */
export function deletionHooksFor(ctx: CallContext): DeletionHooks {
  return {
    beforeStylizedDelete: (stylizedImageId) =>
      ctx.ties.studio.beforeStylizedDelete(ctx, stylizedImageId),
  };
}
