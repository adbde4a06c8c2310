import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import type { CallContext } from "~/infra/call-context.server";
import { conflict, notFound } from "~/infra/errors.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { getStyleEngine } from "~/engines/styling/select-style-engine.server";
import { centsToPriceString } from "~/lib/money";
import { isStyleId, STYLE_IDS, suggestedPrice } from "~/lib/styles";
import { FACE_CONSENT_REQUIRED, hasCurrentFaceConsent } from "~/features/privacy/face-consent";
import { currentFaceConsentVersion } from "~/features/privacy/public.server";
import { idSchema, stylizeSchema } from "~/features/studio/schemas";
import { findImage } from "~/features/studio/images/images.server";
import {
  deleteStylized as deleteStylizedRow,
  ownStylizedOr404,
  listStylized,
  newSeed,
  requestStylization,
  requestStylizations,
  stylizedImageJson,
} from "~/features/studio/styles/stylized-images.server";
import type { StylizedWithOriginal } from "~/features/studio/styles/stylized-images.server";
import { ensureStorageLeft } from "~/features/studio/styles/quotas.server";
import { deletionHooksFor } from "~/features/studio/ties.server";
import type { StylizedImageJson } from "~/features/studio/types";

/** The creator's styles: ask for one, list, poll, delete. */

/**
 * Every request for a style needs the creator's consent to face processing,
 * to the text they would be shown now (the engine of this configuration):
 * 409 without it, or with a consent to another text (they are asked again).
 */
function refuseWithoutConsent(ctx: CallContext, user: Parameters<typeof hasCurrentFaceConsent>[0]) {
  if (!hasCurrentFaceConsent(user, currentFaceConsentVersion(ctx.config)))
    throw conflict(FACE_CONSENT_REQUIRED);
}

/** Room for the result: on the disk, and in the creator's storage. */
async function ensureRoomToStyle(ctx: CallContext, userId: string): Promise<void> {
  await ensureFreeSpace(ctx.config);
  await ensureStorageLeft(ctx.db, { userId, config: ctx.config });
}

/**
 * The creator's original a style is asked of, once the request may go ahead:
 * the consent to face processing (409 without it), the image itself (404) and
 * room for the result.
 */
async function imageToStyle(
  ctx: CallContext,
  user: Parameters<typeof hasCurrentFaceConsent>[0] & { id: string },
  imageId: string,
) {
  refuseWithoutConsent(ctx, user);
  const image = await findImage(ctx.db, user.id, imageId);
  if (!image) throw notFound("Image not found");
  await ensureRoomToStyle(ctx, user.id);
  return image;
}

/** The fields a style request carries besides the image and style: the engine, the day's cap and the consent. */
function styleRequestOf(ctx: CallContext, userId: string) {
  return {
    userId,
    provider: getStyleEngine(ctx.config).id,
    now: ctx.now,
    perDay: ctx.config.STYLIZATIONS_PER_DAY,
    consentVersion: currentFaceConsentVersion(ctx.config),
  };
}

/**
 * Creates a pending stylized image and its durable job; the worker does the
 * rest. Without the creator's consent to face processing (to the text shown
 * now) it answers 409 and queues nothing; the insert checks the consent again,
 * so a withdrawal at the same moment wins.
 */
export const stylizeImage = defineProcedure({
  name: "studio.stylizeImage",
  access: "user",
  input: stylizeSchema,
  async run({ input, user, ctx }) {
    const image = await imageToStyle(ctx, user, input.id);
    // The open-styles cap and the daily quota are checked by the insert itself (429 past either).
    const row = await requestStylization(ctx.db, {
      ...styleRequestOf(ctx, user.id),
      imageId: image.id,
      style: input.style,
    });
    if (!row) throw notFound("Image not found");
    announceJobs();
    return stylizedImageJson(row, image.file_key);
  },
});

/**
 * "All four styles": one style of each kind of the original, each with its own
 * seed and job, all or nothing (a batch that would pass the open-styles cap or
 * today's quota is refused with that 429 and asks for none).
 */
export const stylizeAllStyles = defineProcedure({
  name: "studio.stylizeAllStyles",
  access: "user",
  input: idSchema,
  async run({ input, user, ctx }) {
    const image = await imageToStyle(ctx, user, input.id);
    const rows = await requestStylizations(ctx.db, {
      ...styleRequestOf(ctx, user.id),
      imageId: image.id,
      styles: STYLE_IDS.map((style) => ({ style })),
    });
    if (!rows) throw notFound("Image not found");
    announceJobs();
    return rows.map((row) => stylizedImageJson(row, image.file_key));
  },
});

/**
 * Re-roll: the same original and style again with a new seed, as a new style
 * beside the earlier one (which stays until the creator deletes it). Counts
 * as a style against the caps, like any other.
 */
export const rerollStyle = defineProcedure({
  name: "studio.rerollStyle",
  access: "user",
  input: idSchema,
  async run({ input, user, ctx }) {
    refuseWithoutConsent(ctx, user);
    const earlier = await ownStylizedOr404(ctx.db, user.id, input.id);
    if (!isStyleId(earlier.style)) throw notFound("Stylized image not found");
    await ensureRoomToStyle(ctx, user.id);
    const row = await requestStylization(ctx.db, {
      ...styleRequestOf(ctx, user.id),
      imageId: earlier.image_id,
      style: earlier.style,
      seed: newSeedUnlike(earlier.seed),
    });
    // The original was removed (its styles kept, e.g. once sold): nothing to style again.
    if (!row) throw notFound("The original of this style is no longer held");
    announceJobs();
    return stylizedImageJson(row, earlier.original_file_key);
  },
});

/** A new seed, never the one the earlier run had. */
function newSeedUnlike(earlier: number | null): number {
  const seed = newSeed();
  return seed === earlier ? (seed + 1) % (2 ** 31 - 1) : seed;
}

export const listStylizedImages = defineProcedure({
  name: "studio.listStylizedImages",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    const rows = await listStylized(ctx.db, user.id);
    return Promise.all(rows.map((row) => stylizedImageAnswer(ctx, row)));
  },
});

export const getStylizedImage = defineProcedure({
  name: "studio.getStylizedImage",
  access: "user",
  input: idSchema,
  async run({ input, user, ctx }) {
    return stylizedImageAnswer(ctx, await ownStylizedOr404(ctx.db, user.id, input.id));
  },
});

/** The price a stylized image is offered at before any listing: its own, else its style's suggested price (dollars). */
export function askingPrice(row: { style: string; price_cents: number | null }): string {
  return centsToPriceString(row.price_cents ?? suggestedPrice(row.style) * 100);
}

/** A stylized image as the API answers it, with the price the creator sees: its live listing's, else its asking price. */
async function stylizedImageAnswer(
  ctx: CallContext,
  row: StylizedWithOriginal,
): Promise<StylizedImageJson> {
  const listed = await ctx.ties.studio.listedPriceCents(ctx, row.id);
  const price = listed === null ? askingPrice(row) : centsToPriceString(listed);
  return { ...stylizedImageJson(row, row.original_file_key), price };
}

/** Deletes a style; its ties in other features go first (app/boot/studio-ties.server.ts). */
export const deleteStylizedImage = defineProcedure({
  name: "studio.deleteStylizedImage",
  access: "user",
  input: idSchema,
  async run({ input, user, ctx }) {
    const deleted = await deleteStylizedRow(ctx.db, ctx.files, {
      userId: user.id,
      id: input.id,
      hooks: deletionHooksFor(ctx),
    });
    if (!deleted) throw notFound("Stylized image not found");
    return { id: input.id };
  },
});
