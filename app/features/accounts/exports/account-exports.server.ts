import type { AccountExportRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { newId } from "~/infra/ids.server";
import { enqueueJob } from "~/infra/jobs/job-queue.server";
import { notFound, tooManyRequests } from "~/infra/errors.server";
import { waitText } from "~/infra/rate-limit.server";
import { lockForTransaction } from "~/infra/sql-dialect.server";
import type { AccountExportView } from "~/features/accounts/exports/account-export-types";
import {
  EXPORT_INTERVAL_MINUTES,
  EXPORT_LINK_HOURS,
} from "~/features/accounts/exports/account-export-types";

/**
 * A creator's exports of their own data (table account_exports). Asking for
 * one records it as pending and queues the job that builds its zip
 * (account-export-job.server.ts); while it is pending, asking again answers
 * the same export. A new one may be asked for once per
 * EXPORT_INTERVAL_MINUTES (a failed one does not count). A ready export's zip
 * may be downloaded by its owner (their session or API token, never a link
 * alone) for EXPORT_LINK_HOURS; then the sweep removes the zip.
 */

export const ACCOUNT_EXPORT_JOB = "accounts.export";
/** Removes the zips of exports whose link has expired (queued for each ready export's expiry). */
export const EXPORT_SWEEP_JOB = "accounts.export-sweep";

export const EXPORT_LINK_MS = EXPORT_LINK_HOURS * 60 * 60 * 1000;
export const EXPORT_INTERVAL_MS = EXPORT_INTERVAL_MINUTES * 60 * 1000;

export interface AccountExportJobPayload {
  exportId: string;
}

/**
 * The caller's pending export, or a new one with its job queued (in one
 * transaction holding the user's export lock, lockForTransaction: a second
 * request waits for the first and then finds its export, on PostgreSQL too). Throws 429 when the latest export that did not fail was asked for
 * less than EXPORT_INTERVAL_MINUTES ago.
 */
export async function startAccountExport(
  db: DB,
  userId: string,
  now: Date,
): Promise<AccountExportRow> {
  return db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `account-export:${userId}`);
    const pending = await trx
      .selectFrom("account_exports")
      .selectAll()
      .where("user_id", "=", userId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (pending) return pending;
    const latest = await trx
      .selectFrom("account_exports")
      .select("created_at")
      .where("user_id", "=", userId)
      .where("status", "!=", "failed")
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    if (latest) {
      const waitMs = Date.parse(latest.created_at) + EXPORT_INTERVAL_MS - now.getTime();
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000);
        throw tooManyRequests(
          seconds,
          `You can ask for one export an hour. Your latest export is below; you can ask for a new one in ${waitText(seconds)}.`,
        );
      }
    }
    const id = newId();
    const at = now.toISOString();
    await trx
      .insertInto("account_exports")
      .values({ id, user_id: userId, status: "pending", created_at: at, updated_at: at })
      .execute();
    const jobId = await enqueueJob(trx, {
      kind: ACCOUNT_EXPORT_JOB,
      payload: { exportId: id } satisfies AccountExportJobPayload,
      now,
      userId,
    });
    await trx.updateTable("account_exports").set({ job_id: jobId }).where("id", "=", id).execute();
    return trx
      .selectFrom("account_exports")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  });
}

/** One export of the caller's; 404 for an id that is not theirs. */
export async function ownAccountExport(
  db: DB,
  userId: string,
  id: string,
): Promise<AccountExportRow> {
  const row = await db
    .selectFrom("account_exports")
    .selectAll()
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) throw notFound("Export not found");
  return row;
}

/** The caller's latest export, or null when they never asked for one. */
export async function latestAccountExportOf(
  db: DB,
  userId: string,
): Promise<AccountExportRow | null> {
  const row = await db
    .selectFrom("account_exports")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** When the caller may ask for a new export (null: now, or once the pending one is done). */
export async function nextExportAllowedAt(
  db: DB,
  userId: string,
  now: Date,
): Promise<string | null> {
  const latest = await db
    .selectFrom("account_exports")
    .select(["created_at", "status"])
    .where("user_id", "=", userId)
    .where("status", "!=", "failed")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!latest || latest.status === "pending") return null;
  const allowed = Date.parse(latest.created_at) + EXPORT_INTERVAL_MS;
  return allowed > now.getTime() ? new Date(allowed).toISOString() : null;
}

/** The download path of a ready export's zip while it may be downloaded; null when there is none (or no more). Only its owner's session or token opens it. */
export function exportDownloadPath(row: AccountExportRow, now: Date): string | null {
  return downloadableExportKey(row, now) ? `/api/account/export/${row.id}/download` : null;
}

/** The zip's file key while the export may be downloaded (ready, within its hours), else null. */
export function downloadableExportKey(row: AccountExportRow, now: Date): string | null {
  if (row.status !== "ready" || !row.file_key || !row.expires_at) return null;
  return Date.parse(row.expires_at) > now.getTime() ? row.file_key : null;
}

/** An export as the API and the Your data tab show it; `origin` makes its link absolute. */
export function accountExportView(
  row: AccountExportRow,
  now: Date,
  origin: string,
): AccountExportView {
  const path = exportDownloadPath(row, now);
  return {
    id: row.id,
    status: row.status,
    url: path ? `${origin}${path}` : null,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    bytes: row.bytes,
    error: row.error,
  };
}

/**
 * Removes the zips of exports whose link has expired: each row lets go of its
 * file first (so nothing names a file that is gone), then the file is removed.
 * Answers how many went.
 */
export async function sweepExpiredExports(db: DB, store: FileStore, now: Date): Promise<number> {
  const expired = await db
    .selectFrom("account_exports")
    .select(["id", "file_key"])
    .where("file_key", "is not", null)
    .where("expires_at", "<=", now.toISOString())
    .execute();
  let removed = 0;
  for (const row of expired) {
    const released = await db
      .updateTable("account_exports")
      .set({ file_key: null, updated_at: now.toISOString() })
      .where("id", "=", row.id)
      .where("file_key", "=", row.file_key)
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) === 0) continue;
    await store.remove(row.file_key);
    removed += 1;
  }
  return removed;
}

/** An account erasure's step: the account's export packages, their files and rows. */
export async function eraseAccountExportsOf(
  db: DB,
  store: FileStore,
  userId: string,
): Promise<void> {
  const rows = await db
    .selectFrom("account_exports")
    .select("file_key")
    .where("user_id", "=", userId)
    .execute();
  for (const row of rows) await store.remove(row.file_key);
  await db.deleteFrom("account_exports").where("user_id", "=", userId).execute();
}
