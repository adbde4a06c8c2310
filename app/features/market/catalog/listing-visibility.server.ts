import { sql } from "kysely";
import type { DB } from "~/infra/db.server";

/**
 * Whether the public sees a listing: the one test every public page, API,
 * feed and sitemap of listings applies (listings as `l` joined with their
 * creator as `u`). A listing is shown while it is active, not hidden by a
 * report pending its decision (hidden_at, app/features/reports), and its
 * creator is not banned. A new public read of listings uses this rather than
 * its own filters, so hiding a listing hides it everywhere at once.
 */
export const publiclyListed = sql<boolean>`(l.status = 'active' and l.hidden_at is null and u.banned = 0)`;

/** A reported listing's target: the live listing (hidden or not) and its creator, or a creator's storefront by handle. */
export interface ReportableTarget {
  creatorId: string;
  listingId: string | null;
  handle: string | null;
  title: string | null;
}

/**
 * What a report may target: an active listing of a creator who is neither
 * banned nor erased (already hidden by another report or not), or the
 * storefront of such a creator by handle; null for anything else (unknown,
 * withdrawn).
 */
export async function reportableTarget(
  db: DB,
  target: { listingId?: string | null; handle?: string | null },
): Promise<ReportableTarget | null> {
  // No id or handle holds a NUL character (PostgreSQL's text cannot), so one with it names nothing.
  if (`${target.listingId ?? ""}${target.handle ?? ""}`.includes("\u0000")) return null;
  if (target.listingId) {
    const row = await db
      .selectFrom("listings as l")
      .innerJoin("users as u", "u.id", "l.user_id")
      .select(["l.id", "l.user_id", "l.title", "u.handle"])
      .where("l.id", "=", target.listingId)
      .where("l.status", "=", "active")
      .where("u.banned", "=", 0)
      .where("u.erased_at", "is", null)
      .executeTakeFirst();
    return row
      ? { creatorId: row.user_id, listingId: row.id, handle: row.handle, title: row.title }
      : null;
  }
  if (target.handle) {
    const row = await db
      .selectFrom("users")
      .select(["id", "handle"])
      .where("handle", "=", target.handle)
      .where("banned", "=", 0)
      .where("erased_at", "is", null)
      .executeTakeFirst();
    return row ? { creatorId: row.id, listingId: null, handle: row.handle, title: null } : null;
  }
  return null;
}

/** The listings a report names: one listing, or every listing of a storefront's creator. */
export interface ReportedListings {
  listingId: string | null;
  creatorId: string;
}

/** Hides the reported active listings from the public at once (see publiclyListed); answers how many. */
export async function hideReportedListings(
  db: DB,
  target: ReportedListings,
  now: Date,
): Promise<number> {
  let update = db
    .updateTable("listings")
    .set({ hidden_at: now.toISOString() })
    .where("status", "=", "active")
    .where("hidden_at", "is", null)
    .where("user_id", "=", target.creatorId);
  if (target.listingId) update = update.where("id", "=", target.listingId);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Shows the reported listings again, but for `keepHidden` (those another pending report still hides). */
export async function unhideReportedListings(
  db: DB,
  target: ReportedListings & { keepHidden: readonly string[] },
): Promise<void> {
  let update = db
    .updateTable("listings")
    .set({ hidden_at: null })
    .where("hidden_at", "is not", null)
    .where("user_id", "=", target.creatorId);
  if (target.listingId) update = update.where("id", "=", target.listingId);
  if (target.keepHidden.length > 0) update = update.where("id", "not in", target.keepHidden);
  await update.execute();
}
