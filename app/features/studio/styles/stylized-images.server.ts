import crypto from "node:crypto";
import type { StylizedImageRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { newId } from "~/infra/ids.server";
import { cancelQueuedJobsOfOwner, enqueueJob } from "~/infra/jobs/job-queue.server";
import { conflict, notFound, tooManyRequests } from "~/infra/errors.server";
import { lockForTransaction } from "~/infra/sql-dialect.server";
import { FACE_CONSENT_REQUIRED } from "~/features/privacy/face-consent";
import { signedDownloadUrl, signedMediaUrl } from "~/infra/signed-urls.server";
import { centsToPriceString } from "~/lib/money";
import { PRODUCT_NAME } from "~/lib/product";
import type { ImageFormat, Resolution } from "~/features/studio/optimize/optimization";
import type { StyleId } from "~/lib/styles";
import type { StylizedImageJson } from "~/features/studio/types";
import { DEFAULT_PRICE } from "~/lib/styles";
import type { DeletionHooks } from "~/features/studio/images/deletion-hooks.server";
import {
  DAY_MS,
  dailyLimitReached,
  dailyWaitSeconds,
  recordUsage,
} from "~/features/studio/styles/quotas.server";

/**
 * Stylized images: one row per style run of an original. A row is created
 * `pending` together with its durable job, becomes `processing` when a worker
 * takes the job, and ends `completed` (with its file) or `failed` (with a
 * sentence for the creator). See stylize-job.server.ts for the work itself.
 */

export const STYLIZE_JOB = "stylize-image";
/** A user may have this many styles waiting or in progress at once. */
export const MAX_OPEN_STYLIZATIONS = 8;

/**
 * The name the optimized copy is saved under: "selfie-studio-anime-2048x2048.webp"
 * (the product, the style, the size and the format).
 */
export function optimizedFileName(
  row: Pick<StylizedImageRow, "style" | "optimized_width" | "optimized_height">,
  key: string,
): string {
  const slug = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "");
  const extension = key.slice(key.lastIndexOf(".") + 1);
  const size =
    row.optimized_width && row.optimized_height
      ? `-${row.optimized_width}x${row.optimized_height}`
      : "";
  return `${slug(PRODUCT_NAME)}-${slug(row.style) || "image"}${size}.${extension}`;
}

export function stylizedImageJson(row: StylizedImageRow, originalKey: string): StylizedImageJson {
  const styledUrl =
    row.status === "completed" && row.file_key ? signedMediaUrl(row.file_key) : null;
  const optimized =
    row.status === "completed" && row.optimized_file_key ? row.optimized_file_key : null;
  return {
    id: row.id,
    imageId: row.image_id,
    style: row.style,
    status: row.status,
    styledUrl,
    stylizedUrl: styledUrl,
    originalUrl: signedMediaUrl(originalKey),
    // A download (Content-Disposition: attachment): the creator's own copy, saved under a readable name.
    optimizedUrl: optimized
      ? signedDownloadUrl(optimized, optimizedFileName(row, optimized))
      : null,
    format: optimized ? (row.optimized_format as ImageFormat) : null,
    quality: optimized ? row.optimized_quality : null,
    resolution: optimized ? (row.optimized_resolution as Resolution) : null,
    watermark: optimized ? row.watermark === 1 : null,
    socialOptimized: optimized ? row.social_optimized === 1 : null,
    width: optimized ? row.optimized_width : row.width,
    height: optimized ? row.optimized_height : row.height,
    bytes: optimized ? row.optimized_bytes : row.bytes,
    upscaledBy: optimized ? (row.optimized_upscaled_by ?? row.upscaled_by) : row.upscaled_by,
    price: centsToPriceString(row.price_cents ?? DEFAULT_PRICE * 100),
    licensingEnabled: row.licensing_enabled === 1,
    nftEnabled: row.nft_enabled === 1,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    error: row.status === "failed" ? (row.error ?? "The style could not be generated.") : null,
    provider: row.provider === "fal" ? "fal" : "local",
    seed: row.seed,
  };
}

export type StylizedWithOriginal = StylizedImageRow & { original_file_key: string };

function selectWithOriginal(db: DB) {
  return db
    .selectFrom("stylized_images")
    .innerJoin("images", "images.id", "stylized_images.image_id")
    .selectAll("stylized_images")
    .select("images.file_key as original_file_key");
}

export function findStylized(
  db: DB,
  userId: string,
  id: string,
): Promise<StylizedWithOriginal | undefined> {
  return selectWithOriginal(db)
    .where("stylized_images.id", "=", id)
    .where("stylized_images.user_id", "=", userId)
    .executeTakeFirst();
}

/** One of the user's stylized images with its original, or 404 for another user's or an unknown id. */
export async function ownStylizedOr404(
  db: DB,
  userId: string,
  id: string,
): Promise<StylizedWithOriginal> {
  const row = await findStylized(db, userId, id);
  if (!row) throw notFound("Stylized image not found");
  return row;
}

/** The user's stylized images, newest first. */
export function listStylized(db: DB, userId: string): Promise<StylizedWithOriginal[]> {
  return selectWithOriginal(db)
    .where("stylized_images.user_id", "=", userId)
    .orderBy("stylized_images.created_at", "desc")
    .orderBy("stylized_images.id", "desc")
    .execute();
}

/** One of the user's own stylized images (undefined for another user's or an unknown id). */
export function ownStylizedImage(
  db: DB,
  userId: string,
  stylizedImageId: string,
): Promise<StylizedImageRow | undefined> {
  return db
    .selectFrom("stylized_images")
    .selectAll()
    .where("id", "=", stylizedImageId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

/**
 * The pixel size of the upload a stylized image was made from (its original as
 * stored, kept even after ORIGINALS_RETENTION_DAYS removed the file), or
 * undefined for an unknown stylized image: a sold file is never smaller.
 */
export async function uploadSizeOfStylized(
  db: DB,
  stylizedImageId: string,
): Promise<{ width: number; height: number } | undefined> {
  return db
    .selectFrom("stylized_images")
    .innerJoin("images", "images.id", "stylized_images.image_id")
    .select(["images.width", "images.height"])
    .where("stylized_images.id", "=", stylizedImageId)
    .executeTakeFirst();
}

/** The creator's studio numbers: originals uploaded (held or not) and completed styles. */
export async function studioCountsOf(
  db: DB,
  userId: string,
): Promise<{ totalImages: number; totalStylized: number }> {
  const images = await db
    .selectFrom("images")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  const stylized = await db
    .selectFrom("stylized_images")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("status", "=", "completed")
    .executeTakeFirstOrThrow();
  return { totalImages: Number(images.count), totalStylized: Number(stylized.count) };
}

export async function countOpenStylizations(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom("stylized_images")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("status", "in", ["pending", "processing"])
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Creates a pending stylized image of the user's original and its job, in one
 * transaction. Answers undefined when the user has no such original.
 *
 * The row is inserted by one guarded INSERT ... SELECT that also counts the
 * user's open styles (at most MAX_OPEN_STYLIZATIONS) and, when `perDay` is
 * given, their styles of the last 24 hours. The transaction first takes the
 * user's style lock (lockForTransaction), so requests sent at the same time are
 * counted one after the other and cannot pass a limit together, on PostgreSQL
 * too. Past either, it throws a 429 and changes nothing.
 * (Call announceJobs() afterwards so this process's worker starts at once.)
 */
export async function requestStylization(
  db: DB,
  args: StylizationRequest & {
    style: StyleId;
    /** The seed to make it with (a fresh random one when absent). */
    seed?: number;
  },
): Promise<StylizedImageRow | undefined> {
  const rows = await requestStylizations(db, {
    ...args,
    styles: [{ style: args.style, seed: args.seed }],
  });
  return rows?.[0];
}

interface StylizationRequest {
  userId: string;
  imageId: string;
  provider: "local" | "fal";
  now: Date;
  /** Styles the user may ask for in any 24 hours (no daily limit when absent). */
  perDay?: number;
  /** The version of the face-processing consent the user must hold when the row is inserted (a withdrawal meanwhile refuses with 409). */
  consentVersion?: string;
}

/** A seed for a new style: a whole number from 0 to 2^31 - 1 (what every engine and column takes). */
export function newSeed(): number {
  return crypto.randomInt(0, 2 ** 31 - 1);
}

/**
 * Several styles of one original in one go ("All four styles"), each its own
 * row, seed and job, all or nothing: the rows are inserted one after another
 * under the user's style lock in one transaction, each by the guarded insert
 * below, so a batch that would pass the open-styles cap or the daily quota
 * throws that 429 and none of it is kept. Answers undefined when the user
 * has no such original.
 */
export async function requestStylizations(
  db: DB,
  args: StylizationRequest & { styles: { style: StyleId; seed?: number }[] },
): Promise<StylizedImageRow[] | undefined> {
  return db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `stylize:${args.userId}`);
    const rows: StylizedImageRow[] = [];
    for (const { style, seed } of args.styles) {
      const row = await insertGuarded(trx, { ...args, style, seed: seed ?? newSeed() });
      if (!row) return undefined;
      rows.push(row);
    }
    return rows;
  });
}

/** One guarded insert (see requestStylization), inside the caller's transaction that holds the style lock. */
async function insertGuarded(
  trx: DB,
  args: StylizationRequest & { style: StyleId; seed: number },
): Promise<StylizedImageRow | undefined> {
  {
    const now = args.now.toISOString();
    const since = new Date(args.now.getTime() - DAY_MS).toISOString();
    const row = await trx
      .insertInto("stylized_images")
      .columns([
        "id",
        "image_id",
        "user_id",
        "style",
        "status",
        "provider",
        "seed",
        "created_at",
        "updated_at",
      ])
      .expression((eb) =>
        eb
          .selectFrom("images")
          .select([
            eb.val(newId()).as("id"),
            "images.id as image_id",
            "images.user_id as user_id",
            eb.val(args.style).as("style"),
            eb.val("pending").as("status"),
            eb.val(args.provider).as("provider"),
            eb.val(args.seed).as("seed"),
            eb.val(now).as("created_at"),
            eb.val(now).as("updated_at"),
          ])
          .where("images.id", "=", args.imageId)
          .where("images.user_id", "=", args.userId)
          .where("images.original_removed_at", "is", null)
          .$if(args.consentVersion !== undefined, (query) =>
            query.where((w) =>
              w.exists(
                w
                  .selectFrom("users")
                  .select("users.id")
                  .where("users.id", "=", args.userId)
                  .where("users.face_consent_version", "=", args.consentVersion!)
                  .where("users.face_consent_at", "is not", null),
              ),
            ),
          )
          .where(
            (w) =>
              w
                .selectFrom("stylized_images")
                .select((c) => c.fn.countAll<number>().as("open"))
                .where("stylized_images.user_id", "=", args.userId)
                .where("stylized_images.status", "in", ["pending", "processing"]),
            "<",
            MAX_OPEN_STYLIZATIONS,
          )
          .$if(args.perDay !== undefined, (query) =>
            query.where(
              (w) =>
                w
                  .selectFrom("usage_events")
                  .select((c) => c.fn.countAll<number>().as("today"))
                  .where("usage_events.user_id", "=", args.userId)
                  .where("usage_events.kind", "=", "stylize")
                  .where("usage_events.created_at", ">", since),
              "<",
              args.perDay!,
            ),
          ),
      )
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      const image = await trx
        .selectFrom("images")
        .select("id")
        .where("id", "=", args.imageId)
        .where("user_id", "=", args.userId)
        .where("original_removed_at", "is", null)
        .executeTakeFirst();
      if (!image) return undefined;
      if (args.consentVersion !== undefined) {
        const consent = await trx
          .selectFrom("users")
          .select("id")
          .where("id", "=", args.userId)
          .where("face_consent_version", "=", args.consentVersion)
          .where("face_consent_at", "is not", null)
          .executeTakeFirst();
        if (!consent) throw conflict(FACE_CONSENT_REQUIRED);
      }
      if ((await countOpenStylizations(trx, args.userId)) >= MAX_OPEN_STYLIZATIONS) {
        throw tooManyRequests(
          10,
          `You already have ${MAX_OPEN_STYLIZATIONS} styles in progress. Please wait for them to finish.`,
        );
      }
      const limit = args.perDay ?? Infinity;
      const wait = await dailyWaitSeconds(trx, {
        userId: args.userId,
        kind: "stylize",
        limit,
        now: args.now,
      });
      throw dailyLimitReached("stylize", limit, Math.max(1, wait));
    }
    await recordUsage(trx, { userId: args.userId, kind: "stylize", now: args.now });
    await enqueueJob(trx, {
      kind: STYLIZE_JOB,
      payload: { stylizedImageId: row.id },
      now: args.now,
      maxAttempts: 3,
      userId: args.userId,
    });
    return row;
  }
}

/** Deletes one stylized image (row, styled and optimized files). False when the user has no such image. */
export async function deleteStylized(
  db: DB,
  store: FileStore,
  args: { userId: string; id: string; hooks?: DeletionHooks },
): Promise<boolean> {
  const row = await findStylized(db, args.userId, args.id);
  if (!row) return false;
  await args.hooks?.beforeStylizedDelete?.(row.id);
  await db
    .deleteFrom("stylized_images")
    .where("id", "=", row.id)
    .where("user_id", "=", args.userId)
    .execute();
  await store.remove(row.file_key);
  await store.remove(row.optimized_file_key);
  return true;
}

/**
 * Calls off the user's styles that wait or are being made: their queued style
 * jobs fail (the worker will not take them) and the styles end `failed` with
 * `reason`. A job a worker already holds finds its style no longer
 * `processing` when it is done, and keeps no file.
 */
export async function cancelOpenStyles(
  db: DB,
  args: { userId: string; reason: string; now: Date },
): Promise<number> {
  const stamp = args.now.toISOString();
  await cancelQueuedJobsOfOwner(db, {
    userId: args.userId,
    onlyKinds: [STYLIZE_JOB],
    reason: args.reason,
    now: args.now,
  });
  const cancelled = await db
    .updateTable("stylized_images")
    .set({ status: "failed", error: args.reason, updated_at: stamp })
    .where("user_id", "=", args.userId)
    .where("status", "in", ["pending", "processing"])
    .executeTakeFirst();
  return Number(cancelled.numUpdatedRows);
}
