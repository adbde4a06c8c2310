import type { StylizedImageRow } from "#db/schema";
import type { DB } from "~/server/db.server";
import type { FileStore } from "~/server/file-store.server";
import { newId } from "~/server/ids.server";
import { enqueueJob } from "~/server/jobs/job-queue.server";
import { signedMediaUrl } from "~/server/signed-urls.server";
import { centsToPriceString } from "~/lib/money";
import type { ImageFormat, Resolution } from "~/lib/optimization";
import type { StyleId } from "~/lib/styles";
import type { StylizedImageJson } from "~/lib/studio-types";
import { DEFAULT_PRICE } from "~/lib/styles";
import type { DeletionHooks } from "./images.server";

/**
 * Stylized images: one row per style run of an original. A row is created
 * `pending` together with its durable job, becomes `processing` when a worker
 * takes the job, and ends `completed` (with its file) or `failed` (with a
 * sentence for the creator). See stylize-job.server.ts for the work itself.
 */

export const STYLIZE_JOB = "stylize-image";
/** A user may have this many styles waiting or in progress at once. */
export const MAX_OPEN_STYLIZATIONS = 8;

export function stylizedImageJson(row: StylizedImageRow, originalKey: string): StylizedImageJson {
  const styledUrl = row.status === "completed" && row.file_key ? signedMediaUrl(row.file_key) : null;
  const optimized = row.status === "completed" && row.optimized_file_key ? row.optimized_file_key : null;
  return {
    id: row.id,
    imageId: row.image_id,
    style: row.style,
    status: row.status,
    styledUrl,
    stylizedUrl: styledUrl,
    originalUrl: signedMediaUrl(originalKey),
    optimizedUrl: optimized ? signedMediaUrl(optimized) : null,
    format: optimized ? (row.optimized_format as ImageFormat) : null,
    quality: optimized ? row.optimized_quality : null,
    resolution: optimized ? (row.optimized_resolution as Resolution) : null,
    watermark: optimized ? row.watermark === 1 : null,
    socialOptimized: optimized ? row.social_optimized === 1 : null,
    width: optimized ? row.optimized_width : row.width,
    height: optimized ? row.optimized_height : row.height,
    bytes: optimized ? row.optimized_bytes : row.bytes,
    price: centsToPriceString(row.price_cents ?? DEFAULT_PRICE * 100),
    licensingEnabled: row.licensing_enabled === 1,
    nftEnabled: row.nft_enabled === 1,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    error: row.status === "failed" ? (row.error ?? "The style could not be generated.") : null,
    provider: row.provider === "fal" ? "fal" : "local",
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

export function findStylized(db: DB, userId: string, id: string): Promise<StylizedWithOriginal | undefined> {
  return selectWithOriginal(db)
    .where("stylized_images.id", "=", id)
    .where("stylized_images.user_id", "=", userId)
    .executeTakeFirst();
}

/** The user's stylized images, newest first. */
export function listStylized(db: DB, userId: string): Promise<StylizedWithOriginal[]> {
  return selectWithOriginal(db)
    .where("stylized_images.user_id", "=", userId)
    .orderBy("stylized_images.created_at", "desc")
    .orderBy("stylized_images.id", "desc")
    .execute();
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
 * (Call announceJobs() afterwards so this process's worker starts at once.)
 */
export async function requestStylization(
  db: DB,
  args: { userId: string; imageId: string; style: StyleId; provider: "local" | "fal"; now: Date },
): Promise<StylizedImageRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const image = await trx
      .selectFrom("images")
      .select("id")
      .where("id", "=", args.imageId)
      .where("user_id", "=", args.userId)
      .executeTakeFirst();
    if (!image) return undefined;
    const now = args.now.toISOString();
    const row = await trx
      .insertInto("stylized_images")
      .values({
        id: newId(),
        image_id: image.id,
        user_id: args.userId,
        style: args.style,
        status: "pending",
        provider: args.provider,
        file_key: null,
        width: null,
        height: null,
        bytes: null,
        error: null,
        price_cents: null,
        optimized_file_key: null,
        optimized_format: null,
        optimized_quality: null,
        optimized_resolution: null,
        optimized_width: null,
        optimized_height: null,
        optimized_bytes: null,
        watermark: null,
        social_optimized: null,
        created_at: now,
        updated_at: now,
        completed_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await enqueueJob(trx, { kind: STYLIZE_JOB, payload: { stylizedImageId: row.id }, now: args.now, maxAttempts: 3 });
    return row;
  });
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
  await db.deleteFrom("stylized_images").where("id", "=", row.id).where("user_id", "=", args.userId).execute();
  await store.remove(row.file_key);
  await store.remove(row.optimized_file_key);
  return true;
}
