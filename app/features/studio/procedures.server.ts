import path from "node:path";
import { z } from "zod";
import { creatorStudioFiles } from "~/features/studio/creator-export.server";
import { defineProcedure, invoke } from "~/infra/procedure.server";
import { conflict, notFound, unsupportedMedia, tooManyRequests } from "~/infra/errors.server";
import type { DB } from "~/infra/db.server";
import { FACE_CONSENT_REQUIRED, FACE_CONSENT_VERSION, faceConsentText, hasCurrentFaceConsent } from "~/features/privacy/face-consent";
import { originalRemovalDate, removeExpiredOriginals } from "~/features/studio/original-retention.server";
import { getFileStore } from "~/infra/file-store.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { getStyleEngine, styleEngineInUse } from "~/engines/styling/select-style-engine.server";
import { receiveFileUpload } from "~/infra/uploads/receive-upload.server";
import { sweepScratchSoon } from "~/infra/uploads/scratch-sweep.server";
import { DAMAGED_IMAGE, INVALID_FILE_TYPE, MAX_UPLOAD_BYTES, UPLOAD_FIELD, UPLOAD_MESSAGES } from "~/lib/limits";
import { idSchema, stylizeSchema, optimizeSchema } from "~/features/studio/schemas";
import { removePublishingArtifacts } from "~/features/publishing/lends.server";
import {
  deleteImage as deleteImageRows,
  findImage,
  findImageWithStylized,
  imageJson,
  listImagesWithStylized,
  NotAnImageError,
  storeUploadedImage,
} from "~/features/studio/images.server";
import { activeListingForStylizedImage, marketplaceListingUrl, withdrawListingsForStylizedImage } from "~/features/market/procedures.server";
import { centsToPriceString } from "~/lib/money";
import {
  cancelOpenStyles,
  requestStylization,
  stylizedImageJson,
  deleteStylized as deleteStylizedRow,
  findStylized,
  listStylized,
} from "~/features/studio/stylized-images.server";
import type { StylizedWithOriginal } from "~/features/studio/stylized-images.server";
import { ensureDailyAllowance, ensureStorageLeft, recordUsage } from "~/features/studio/quotas.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import type { DeletionHooks } from "~/features/studio/deletion-hooks.server";
import type { CallContext } from "~/infra/call-context.server";
import { optimizeStylizedImage, runningOptimizations } from "~/features/studio/optimization.server";
import { selectUpscaler } from "~/engines/upscaling/select-upscaler.server";
import type { FlashMessage } from "~/lib/flash";
import type { OptimizationSettings } from "~/features/studio/optimization";
import { OPTIMIZATION_DEFAULTS, PRESETS } from "~/features/studio/optimization";
import { isInProgress } from "~/features/studio/types";
import type { DashboardData, DashboardView, ImageJson, MarketState, StylizedImageJson } from "~/features/studio/types";
import { STYLE_POLL_MAX_ATTEMPTS, styleName, suggestedPrice } from "~/lib/styles";
import type { PipelineStep } from "~/features/studio/dashboard-url";
import { dashboardUrl, PIPELINE_STEPS } from "~/features/studio/dashboard-url";
import { creatorStats } from "~/features/payouts/procedures.server";
import { toPublicUser } from "~/features/accounts/lends.server";
import { publishingPlatforms } from "~/features/publishing/procedures/integrations.server";

/**
 * The creator's originals: upload, list, read, delete, and asking for a style.
 * Used by the /api routes (bearer or cookie) and by the dashboard's actions.
 */

/**
 * Streams the multipart body the adapter hands over (ctx.upload) to the data
 * volume (10 MB hard limit), then decodes and stores it. The body is a stream,
 * not an input to validate, and it is read only after the caller was admitted.
 */
export const uploadImage = defineProcedure({
  name: "studio.uploadImage",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    const store = getFileStore();
    sweepScratchSoon(path.join(store.root, "tmp"));
    const daily = { userId: user.id, kind: "upload" as const, limit: ctx.config.UPLOADS_PER_DAY, now: ctx.now };
    if (!ctx.upload) throw new Error("studio.uploadImage is called with the request body (ctx.upload)");
    const upload = await receiveFileUpload(ctx.upload, {
      field: UPLOAD_FIELD,
      maxFileBytes: MAX_UPLOAD_BYTES,
      scratchPath: () => store.scratchPath(),
      messages: UPLOAD_MESSAGES,
      // Refused before the body is read: a full volume, today's uploads used up, or no storage left.
      admit: async () => {
        await ensureFreeSpace(ctx.config);
        await ensureDailyAllowance(ctx.db, daily);
        await ensureStorageLeft(ctx.db, { userId: user.id, config: ctx.config });
      },
    });
    try {
      const row = await storeUploadedImage(ctx.db, store, {
        userId: user.id,
        sourcePath: upload.path,
        now: ctx.now,
        // Checked again where the row is inserted, so uploads sent at the same time cannot pass together.
        admit: async (trx, image) => {
          await ensureDailyAllowance(trx, daily);
          await ensureStorageLeft(trx, { userId: user.id, config: ctx.config, addingBytes: image.bytes });
          await recordUsage(trx, { userId: user.id, kind: "upload", now: ctx.now });
        },
      });
      return imageJson(row);
    } catch (error) {
      if (error instanceof NotAnImageError) throw unsupportedMedia((error.problem === "damaged" ? DAMAGED_IMAGE : INVALID_FILE_TYPE).description);
      throw error;
    }
  },
});

export const listImages = defineProcedure({
  name: "studio.listImages",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => listImagesWithStylized(ctx.db, user.id),
});

export const getImage = defineProcedure({
  name: "studio.getImage",
  access: "user",
  input: idSchema,
  async run({ input, user, ctx }) {
    const image = await findImageWithStylized(ctx.db, user.id, input.id);
    if (!image) throw notFound("Image not found");
    return image;
  },
});

/** Withdraws the marketplace listings of each stylized image before it goes (sold copies stay downloadable). */
export function studioDeletionHooks(ctx: CallContext): DeletionHooks {
  const store = getFileStore();
  return {
    beforeStylizedDelete: async (stylizedImageId) => {
      await withdrawListingsForStylizedImage(ctx.db, stylizedImageId, { store, now: ctx.now });
      await removePublishingArtifacts(ctx.db, store, stylizedImageId);
    },
  };
}

export const deleteImage = defineProcedure({
  name: "studio.deleteImage",
  access: "user",
  input: idSchema,
  async run({ input, user, ctx }) {
    const deleted = await deleteImageRows(ctx.db, getFileStore(), {
      userId: user.id,
      imageId: input.id,
      hooks: studioDeletionHooks(ctx),
    });
    if (!deleted) throw notFound("Image not found");
    return { id: input.id };
  },
});

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
    if (!hasCurrentFaceConsent(user)) throw conflict(FACE_CONSENT_REQUIRED);
    const image = await findImage(ctx.db, user.id, input.id);
    if (!image) throw notFound("Image not found");
    await ensureFreeSpace(ctx.config);
    await ensureStorageLeft(ctx.db, { userId: user.id, config: ctx.config });
    // The open-styles cap and the daily quota are checked by the insert itself (429 past either).
    const row = await requestStylization(ctx.db, {
      userId: user.id,
      imageId: image.id,
      style: input.style,
      provider: getStyleEngine(ctx.config).id,
      now: ctx.now,
      perDay: ctx.config.STYLIZATIONS_PER_DAY,
      consentVersion: FACE_CONSENT_VERSION,
    });
    if (!row) throw notFound("Image not found");
    announceJobs();
    return stylizedImageJson(row, image.file_key);
  },
});

/** A withdrawn consent to face processing: the creator's waiting styles end, with `reason`. */
export function cancelStylesOfCreator(db: DB, args: { userId: string; reason: string; now: Date }): Promise<number> {
  return cancelOpenStyles(db, args);
}

/** The daily retention sweep of ORIGINALS_RETENTION_DAYS (original-retention.server.ts); nothing when originals are kept. */
export async function sweepExpiredOriginals(db: DB, args: { retentionDays: number | undefined; now: Date }): Promise<string[]> {
  if (args.retentionDays === undefined) return [];
  return removeExpiredOriginals(db, getFileStore(), { retentionDays: args.retentionDays, now: args.now });
}

/** The creator's stylized images: list, poll, delete, optimize. */

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
    const row = await findStylized(ctx.db, user.id, input.id);
    if (!row) throw notFound("Stylized image not found");
    return stylizedImageAnswer(ctx, row);
  },
});

/**
 * The price and listed state the creator sees for a stylized image: its live
 * listing's price when it has one, else its own price (else the style's
 * suggested price). The dashboard's cards and the API answer the same.
 */
async function marketStateOf(
  ctx: CallContext,
  row: { id: string; style: string; price_cents: number | null },
): Promise<MarketState> {
  const listing = await activeListingForStylizedImage(ctx.db, row.id);
  const cents = listing?.price_cents ?? row.price_cents ?? suggestedPrice(row.style) * 100;
  return {
    price: centsToPriceString(cents),
    listed: Boolean(listing),
    url: listing ? marketplaceListingUrl(ctx.origin, listing.id) : null,
  };
}

/** A stylized image as the API answers it, with the price the creator sees (marketStateOf). */
async function stylizedImageAnswer(ctx: CallContext, row: StylizedWithOriginal): Promise<StylizedImageJson> {
  return { ...stylizedImageJson(row, row.original_file_key), price: (await marketStateOf(ctx, row)).price };
}

export const deleteStylizedImage = defineProcedure({
  name: "studio.deleteStylizedImage",
  access: "user",
  input: idSchema,
  async run({ input, user, ctx }) {
    const deleted = await deleteStylizedRow(ctx.db, getFileStore(), {
      userId: user.id,
      id: input.id,
      hooks: studioDeletionHooks(ctx),
    });
    if (!deleted) throw notFound("Stylized image not found");
    return { id: input.id };
  },
});

export const optimizeImage = defineProcedure({
  name: "studio.optimizeImage",
  access: "user",
  input: optimizeSchema,
  async run({ input, user, ctx }) {
    const row = await findStylized(ctx.db, user.id, input.imageId);
    if (!row) throw notFound("Stylized image not found");
    await ensureFreeSpace(ctx.config);
    await ensureStorageLeft(ctx.db, { userId: user.id, config: ctx.config });
    const max = ctx.config.OPTIMIZATIONS_AT_ONCE;
    const release = runningOptimizations.tryAcquire(user.id, max);
    if (!release) {
      throw tooManyRequests(
        5,
        `You already have ${max} ${max === 1 ? "optimization" : "optimizations"} running. Please wait for them to finish.`,
      );
    }
    try {
      const { imageId: _imageId, ...settings } = input;
      const updated = await optimizeStylizedImage(ctx.db, getFileStore(), {
        row,
        settings,
        now: ctx.now,
        upscaler: selectUpscaler(ctx.config),
      });
      return stylizedImageJson(updated, row.original_file_key);
    } finally {
      release();
    }
  },
});

/**
 * The dashboard screen (/dashboard, and / when signed in): its data and its
 * form actions. Its state is in the URL (see ~/lib/dashboard-url), so it works
 * without JavaScript.
 */

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export const dashboardQuery = z.object({
  image: optional(z.string().min(1).max(64)),
  styled: optional(z.string().min(1).max(64)),
  step: optional(z.enum(PIPELINE_STEPS)),
  pending: optional(z.string().min(1).max(64)),
  poll: optional(z.coerce.number().int().min(0).max(1000)),
  preset: optional(z.enum(Object.keys(PRESETS) as [keyof typeof PRESETS, ...(keyof typeof PRESETS)[]])),
  panel: optional(z.enum(["launch", "sell"])),
});
export type DashboardQuery = z.infer<typeof dashboardQuery>;

/** The dashboard screen's data for a signed-in creator (the route module composes it: app/routes/_studio+/dashboard.server.ts). */
export const loadDashboardProcedure = defineProcedure({
  name: "studio.dashboard",
  access: "user",
  input: dashboardQuery,
  async run({ input, user, ctx }) {
    const images = await ctx.db
      .selectFrom("images")
      .selectAll()
      .where("user_id", "=", user.id)
      .where("original_removed_at", "is", null)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .execute();
    const stylizedRows = await listStylized(ctx.db, user.id);
    const stylized = stylizedRows.map((row) => stylizedImageJson(row, row.original_file_key));
    const stats = await invoke(creatorStats, user, {}, ctx);
    const imageList = images.map((row) => ({
      ...imageJson(row),
      removesAt: originalRemovalDate(row.created_at, ctx.config.ORIGINALS_RETENTION_DAYS),
    }));

    const styled = input.styled ? (stylized.find((item) => item.id === input.styled) ?? null) : null;
    const image =
      (input.image ? imageList.find((item) => item.id === input.image) : undefined) ??
      (styled ? imageList.find((item) => item.id === styled.imageId) : undefined) ??
      null;
    // The style being waited for: the one the page names, else (a reload, a new visit) the image's newest still in progress.
    const pending = input.pending
      ? (stylized.find((item) => item.id === input.pending) ?? null)
      : image
        ? (stylized.find((item) => item.imageId === image.id && isInProgress(item)) ?? null)
        : null;

    // A style a page without JavaScript was waiting for has ended: move on, with a success or failure toast.
    if (input.pending && (!pending || !isInProgress(pending))) {
      if (pending?.status === "completed") {
        return {
          outcome: "redirect" as const,
          redirect: dashboardUrl({ styled: pending.id, step: "optimize" }),
          flash: {
            kind: "success",
            title: "AI Style Generated!",
            description: `Your ${styleName(pending.style)} transformation is complete.`,
          } satisfies FlashMessage,
        };
      }
      return {
        outcome: "redirect" as const,
        redirect: dashboardUrl({ image: image?.id, step: "style" }),
        flash: { kind: "error", title: "Generation Failed", description: "AI processing failed" } satisfies FlashMessage,
      };
    }
    const poll = input.poll ?? 0;
    if (pending && poll >= STYLE_POLL_MAX_ATTEMPTS) {
      return {
        outcome: "redirect" as const,
        redirect: dashboardUrl({ image: image?.id, step: "style" }),
        flash: { kind: "error", title: "Generation Failed", description: "AI processing timed out" } satisfies FlashMessage,
      };
    }

    const step = pipelineStep(input, { image, styled });
    // The market step's panels offer the creator's platforms, connected or not.
    const platforms =
      step === "market" && styled && input.panel ? await invoke(publishingPlatforms, user, {}, ctx) : [];
    const view: DashboardView = {
      step,
      image,
      styled,
      pending,
      panel: input.panel ?? null,
      platforms,
      preset: input.preset ?? null,
      optimization: startingSettings(styled, input.preset),
      refreshUrl:
        stylized.some(isInProgress) && poll < STYLE_POLL_MAX_ATTEMPTS
          ? dashboardUrl({ ...input, poll: poll + 1 })
          : null,
    };
    const market: Record<string, MarketState> = {};
    for (const row of stylizedRows) {
      if (row.status !== "completed") continue;
      market[row.id] = await marketStateOf(ctx, row);
    }
    const engine = styleEngineInUse(ctx.config);
    const data: DashboardData = {
      user: toPublicUser(user),
      stats,
      images: imageList,
      stylized,
      market,
      view,
      faceConsent: { given: hasCurrentFaceConsent(user), paragraphs: faceConsentText(engine) },
      styleEngine: engine.kind,
    };
    return { outcome: "view" as const, ...data };
  },
});

/** The step shown: the one asked for when what it holds is there, else the furthest one the held images allow. */
export function pipelineStep(
  query: Pick<DashboardQuery, "step">,
  held: { image: ImageJson | null; styled: StylizedImageJson | null },
): PipelineStep {
  const styledReady = held.styled?.status === "completed";
  switch (query.step) {
    case "upload":
      return "upload";
    case "style":
      return "style";
    case "optimize":
    case "market":
      return styledReady ? query.step : held.image ? "style" : "upload";
    default:
      if (styledReady) return "optimize";
      return held.image ? "style" : "upload";
  }
}

function startingSettings(styled: StylizedImageJson | null, preset: keyof typeof PRESETS | undefined): OptimizationSettings {
  const base: OptimizationSettings =
    styled?.optimizedUrl && styled.format && styled.quality !== null && styled.resolution
      ? {
          quality: styled.quality,
          format: styled.format,
          resolution: styled.resolution,
          watermark: styled.watermark ?? OPTIMIZATION_DEFAULTS.watermark,
          socialOptimized: styled.socialOptimized ?? OPTIMIZATION_DEFAULTS.socialOptimized,
        }
      : OPTIMIZATION_DEFAULTS;
  return preset ? { ...base, ...PRESETS[preset] } : base;
}

/**
 * For the caller's data export (run by the export job): every original, style
 * and optimized file of theirs, by the path each takes inside the zip.
 */
export const creatorStudioExport = defineProcedure({
  name: "creatorStudioExport",
  access: "user",
  input: z.object({}),
  run: async ({ user, ctx }) => ({ files: await creatorStudioFiles(ctx.db, user.id) }),
});
export { cancelStylesOfErasedCreator, eraseStudioDataOf } from "~/features/studio/creator-erasure.server";
