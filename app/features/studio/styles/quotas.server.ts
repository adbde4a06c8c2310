import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { insufficientStorage, tooManyRequests } from "~/infra/errors.server";
import { lockForTransaction } from "~/infra/sql-dialect.server";

/**
 * Per-creator quotas (docs/decisions/013-creator-quotas.md):
 * - a rolling 24-hour count of uploads and of styles asked for, kept in
 *   usage_events (so deleting an image does not give its upload back);
 *   past the limit: 429 with Retry-After until the oldest counted event leaves
 *   the window;
 * - the bytes of a creator's originals, styled and optimized images, against
 *   STORAGE_PER_CREATOR_MB; past it: 507.
 */

export type UsageKind = "upload" | "stylize";

export const DAY_MS = 24 * 60 * 60 * 1000;
const MB = 1024 * 1024;

/** Bytes of the creator's originals, styled and optimized files. */
export async function storageUsedBytes(db: DB, userId: string): Promise<number> {
  const originals = await db
    .selectFrom("images")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("bytes"), eb.lit(0)).as("total"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  const styled = await db
    .selectFrom("stylized_images")
    .select((eb) =>
      eb.fn
        .coalesce(
          eb.fn.sum<number>(
            eb(
              eb.fn.coalesce("bytes", eb.lit(0)),
              "+",
              eb.fn.coalesce("optimized_bytes", eb.lit(0)),
            ),
          ),
          eb.lit(0),
        )
        .as("total"),
    )
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(originals.total) + Number(styled.total);
}

/**
 * Refuses (507) when the creator's files would take more than their share:
 * with `addingBytes` 0 (size not known yet), when the share is already used up.
 */
export async function ensureStorageLeft(
  db: DB,
  args: { userId: string; config: Pick<Config, "STORAGE_PER_CREATOR_MB">; addingBytes?: number },
): Promise<void> {
  const limit = args.config.STORAGE_PER_CREATOR_MB * MB;
  const used = await storageUsedBytes(db, args.userId);
  const adding = args.addingBytes ?? 0;
  if (adding === 0 ? used >= limit : used + adding > limit) {
    throw insufficientStorage(
      adding === 0
        ? `You have used all ${args.config.STORAGE_PER_CREATOR_MB} MB of your storage. Delete some images to make room.`
        : `This image would take you past your ${args.config.STORAGE_PER_CREATOR_MB} MB of storage. Delete some images to make room.`,
    );
  }
}

/**
 * Seconds until the creator may do `kind` again, or 0 when they may now:
 * with `limit` events counted in the last 24 hours, they may again once
 * enough of the oldest have left the window.
 */
export async function dailyWaitSeconds(
  db: DB,
  args: { userId: string; kind: UsageKind; limit: number; now: Date },
): Promise<number> {
  const since = new Date(args.now.getTime() - DAY_MS).toISOString();
  // The limit-th newest event in the window: when it leaves, there is room again.
  const freeing = await db
    .selectFrom("usage_events")
    .select("created_at")
    .where("user_id", "=", args.userId)
    .where("kind", "=", args.kind)
    .where("created_at", ">", since)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .offset(args.limit - 1)
    .executeTakeFirst();
  if (!freeing) return 0;
  const ms = new Date(freeing.created_at).getTime() + DAY_MS - args.now.getTime();
  return Math.max(1, Math.ceil(ms / 1000));
}

/** "3 hours", "12 minutes", "a minute". */
export function waitPhrase(seconds: number): string {
  if (seconds <= 90) return "a minute";
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} minutes`;
  return `${Math.round(minutes / 60)} hours`;
}

const DAILY_NOUNS: Record<UsageKind, [string, string]> = {
  upload: ["upload", "uploads"],
  stylize: ["style", "styles"],
};

function dailyMessage(kind: UsageKind, limit: number, wait: string): string {
  const [one, many] = DAILY_NOUNS[kind];
  return `You have reached your limit of ${limit} ${limit === 1 ? one : many} a day. Please try again in ${wait}.`;
}

/** Refuses (429 with Retry-After) when the creator has used up today's `kind`. */
export async function ensureDailyAllowance(
  db: DB,
  args: { userId: string; kind: UsageKind; limit: number; now: Date },
): Promise<void> {
  const wait = await dailyWaitSeconds(db, args);
  if (wait > 0) throw dailyLimitReached(args.kind, args.limit, wait);
}

export function dailyLimitReached(kind: UsageKind, limit: number, waitSeconds: number) {
  return tooManyRequests(waitSeconds, dailyMessage(kind, limit, waitPhrase(waitSeconds)));
}

/** Counts one upload or style for the daily quota, and forgets the creator's events older than a day. */
export async function recordUsage(
  db: DB,
  args: { userId: string; kind: UsageKind; now: Date },
): Promise<void> {
  await db
    .deleteFrom("usage_events")
    .where("user_id", "=", args.userId)
    .where("kind", "=", args.kind)
    .where("created_at", "<=", new Date(args.now.getTime() - DAY_MS).toISOString())
    .execute();
  await db
    .insertInto("usage_events")
    .values({ user_id: args.userId, kind: args.kind, created_at: args.now.toISOString() })
    .execute();
}

/**
 * Admits one upload of `bytes` in the transaction that inserts its row: takes
 * the creator's upload lock (lockForTransaction), then checks today's uploads
 * and the storage left, and counts the upload. Uploads that arrive at the same
 * time are admitted one after the other, so together they cannot pass
 * UPLOADS_PER_DAY or STORAGE_PER_CREATOR_MB, on PostgreSQL too.
 */
export async function admitUpload(
  trx: DB,
  args: {
    userId: string;
    config: Pick<Config, "UPLOADS_PER_DAY" | "STORAGE_PER_CREATOR_MB">;
    bytes: number;
    now: Date;
  },
): Promise<void> {
  await lockForTransaction(trx, `upload:${args.userId}`);
  await ensureDailyAllowance(trx, {
    userId: args.userId,
    kind: "upload",
    limit: args.config.UPLOADS_PER_DAY,
    now: args.now,
  });
  await ensureStorageLeft(trx, {
    userId: args.userId,
    config: args.config,
    addingBytes: args.bytes,
  });
  await recordUsage(trx, { userId: args.userId, kind: "upload", now: args.now });
}
