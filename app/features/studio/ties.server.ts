import type { CallContext } from "~/infra/call-context.server";
import type { DeletionHooks } from "~/features/studio/images/deletion-hooks.server";

/**
 * What other features hold of the studio's stylized images, asked through
 * functions they hand in (app/boot/studio-ties.server.ts wires them): the
 * studio itself imports no other feature.
 */
export interface StudioTies {
  /** Runs before a stylized image's rows go (withdraw its listings, remove what publishing made of it). */
  beforeStylizedDelete: (ctx: CallContext, stylizedImageId: string) => Promise<void>;
  /** The price of the stylized image's live listing, in cents; null when it is not listed. */
  listedPriceCents: (ctx: CallContext, stylizedImageId: string) => Promise<number | null>;
}

let tied: StudioTies | null = null;

/** Hands the studio its ties (once per process; a second call replaces the first). */
export function tieStudio(ties: StudioTies): void {
  tied = ties;
}

/** The ties handed in; a process that never wired them fails loudly rather than skip a cascade. */
export function studioTies(): StudioTies {
  if (!tied)
    throw new Error(
      "The studio's ties to other features are not wired (app/boot/studio-ties.server.ts)",
    );
  return tied;
}

/** The deletion hooks of a call: every stylized image going runs the other features' part first. */
export function deletionHooksFor(ctx: CallContext): DeletionHooks {
  return {
    beforeStylizedDelete: (stylizedImageId) =>
      studioTies().beforeStylizedDelete(ctx, stylizedImageId),
  };
}
