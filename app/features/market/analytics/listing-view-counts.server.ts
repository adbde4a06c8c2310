import type { DB } from "~/infra/db.server";
import { countOnListingDays } from "~/features/market/analytics/analytics.server";
import { viewDay } from "~/features/market/catalog/marketplace-search.server";

/**
 * The creators' view counts, batched: a view is noted in memory (no database
 * work on the request, so a page served from the visitors' cache stays a
 * memory read) and the views noted are written together, one transaction
 * every VIEW_FLUSH_MS, at once when MAX_PENDING_VIEWS wait, and when the
 * process stops (boot's shutdown). What the database holds is then the truth
 * for every process sharing it: a view counts once per visitor, listing and
 * UTC day (listing_views, keyed by day and visitor, is the de-duplication),
 * at most LISTINGS_COUNTED_PER_VISITOR_DAY listings per visitor and day.
 * A process killed outright loses the views it had not written (at most
 * VIEW_FLUSH_MS of them): see docs/decisions/069-visitor-counts.md.
 */

/**
 * Listings one visitor's views count for on one day: about twenty marketplace
 * pages of 24 cards. Past it, the visitor's views count nothing that day.
 */
export const LISTINGS_COUNTED_PER_VISITOR_DAY = 500;

/** How long a noted view waits before it is written with the others. */
export const VIEW_FLUSH_MS = 10_000;

/** Views noted and not yet written at most: at this many a write starts at once. */
export const MAX_PENDING_VIEWS = 10_000;

/** (day, visitor, listing) triples remembered per database as noted, so a repeat costs nothing; bounded, oldest first out. */
const NOTED_KEPT = 50_000;

/** Rows per INSERT and ids per IN list (well under either engine's limit on parameters). */
const CHUNK = 300;

interface PendingView {
  day: string;
  visitorHash: string;
  /** The signed-in viewer, whose own listings never count. */
  viewerId: string | null;
  listingId: string;
}

interface ViewBatch {
  pending: Map<string, PendingView>;
  noted: Set<string>;
  timer: ReturnType<typeof setTimeout> | null;
  writing: Promise<number> | null;
}

/** One batch per database (the app has one; each test file has its own). */
const batches = new Map<DB, ViewBatch>();

function batchOf(db: DB): ViewBatch {
  let batch = batches.get(db);
  if (!batch) {
    batch = { pending: new Map(), noted: new Set(), timer: null, writing: null };
    batches.set(db, batch);
  }
  return batch;
}

/**
 * Notes a view of each listing shown by `viewer` at `now`; nothing is written
 * now. A (day, visitor, listing) this process has already noted is passed over.
 */
export function noteListingViews(
  db: DB,
  listingIds: string[],
  viewer: { userId: string | null; visitorHash: string },
  now: Date,
): void {
  const batch = batchOf(db);
  const day = viewDay(now);
  for (const listingId of listingIds) {
    const key = `${day}\n${viewer.visitorHash}\n${listingId}`;
    if (batch.noted.has(key)) continue;
    batch.noted.add(key);
    if (batch.noted.size > NOTED_KEPT) batch.noted.delete(batch.noted.values().next().value!);
    batch.pending.set(key, {
      day,
      visitorHash: viewer.visitorHash,
      viewerId: viewer.userId,
      listingId,
    });
  }
  if (batch.pending.size >= MAX_PENDING_VIEWS) writeInBackground(db);
  else if (batch.pending.size > 0 && !batch.timer) {
    batch.timer = setTimeout(() => writeInBackground(db), VIEW_FLUSH_MS);
    // A pending write never keeps the process alive; shutdown flushes it.
    batch.timer.unref?.();
  }
}

function writeInBackground(db: DB) {
  flushListingViews(db).catch((error: unknown) =>
    console.warn(
      `Could not write the listings' views (kept for the next try): ${error instanceof Error ? error.message : String(error)}`,
    ),
  );
}

/**
 * Writes the views noted for `db` (after any write under way): answers how
 * many counted. On failure the views go back to wait for the next write
 * (as many as MAX_PENDING_VIEWS allows) and the error is thrown.
 */
export async function flushListingViews(db: DB): Promise<number> {
  const batch = batches.get(db);
  if (!batch) return 0;
  while (batch.writing) await batch.writing.catch(() => undefined);
  if (batch.timer) clearTimeout(batch.timer);
  batch.timer = null;
  if (batch.pending.size === 0) return 0;
  const views = [...batch.pending.values()];
  batch.pending = new Map();
  batch.writing = writeListingViews(db, views);
  try {
    return await batch.writing;
  } catch (error) {
    for (const view of views) {
      if (batch.pending.size >= MAX_PENDING_VIEWS) break;
      batch.pending.set(`${view.day}\n${view.visitorHash}\n${view.listingId}`, view);
    }
    throw error;
  } finally {
    batch.writing = null;
  }
}

/** Writes every database's noted views (when the process stops). */
export async function flushAllListingViews(): Promise<void> {
  for (const db of batches.keys()) await flushListingViews(db);
}

/**
 * The views in one transaction per day: the visitors' new (day, visitor,
 * listing) rows, past the ones the database has (another process may have
 * written them) and within each visitor's daily cap; then each listing's
 * total and its day row, by the number of new rows it got.
 */
async function writeListingViews(db: DB, views: PendingView[]): Promise<number> {
  let counted = 0;
  for (const [day, ofDay] of groupBy(views, (view) => view.day))
    counted += await db.transaction().execute((trx) => writeDay(trx, day, ofDay));
  return counted;
}

async function writeDay(trx: DB, day: string, views: PendingView[]): Promise<number> {
  // Listings that exist, and not the viewer's own.
  const creators = new Map<string, string>();
  for (const ids of chunks([...new Set(views.map((view) => view.listingId))].sort())) {
    const rows = await trx
      .selectFrom("listings")
      .select(["id", "user_id"])
      .where("id", "in", ids)
      .execute();
    for (const row of rows) creators.set(row.id, row.user_id);
  }
  const byVisitor = groupBy(
    views.filter((view) => {
      const creator = creators.get(view.listingId);
      return creator !== undefined && creator !== view.viewerId;
    }),
    (view) => view.visitorHash,
  );
  if (byVisitor.size === 0) return 0;

  // Each visitor's listings of the day so far (one range of the key each); those near the cap are read in full.
  const already = new Map<string, number>();
  for (const hashes of chunks([...byVisitor.keys()].sort())) {
    const rows = await trx
      .selectFrom("listing_views")
      .select(["visitor_hash", (eb) => eb.fn.countAll<number>().as("count")])
      .where("day", "=", day)
      .where("visitor_hash", "in", hashes)
      .groupBy("visitor_hash")
      .execute();
    for (const row of rows) already.set(row.visitor_hash, Number(row.count));
  }
  const rows: { day: string; visitor_hash: string; listing_id: string }[] = [];
  for (const [hash, ofVisitor] of byVisitor) {
    const room = LISTINGS_COUNTED_PER_VISITOR_DAY - (already.get(hash) ?? 0);
    if (room <= 0) continue;
    let fresh = ofVisitor;
    if (fresh.length > room) {
      const seen = new Set(
        (
          await trx
            .selectFrom("listing_views")
            .select("listing_id")
            .where("day", "=", day)
            .where("visitor_hash", "=", hash)
            .execute()
        ).map((row) => row.listing_id),
      );
      fresh = fresh.filter((view) => !seen.has(view.listingId)).slice(0, room);
    }
    for (const view of fresh) rows.push({ day, visitor_hash: hash, listing_id: view.listingId });
  }
  // In key order, so two processes writing at once take their row locks in the same order.
  rows.sort((a, b) =>
    a.visitor_hash === b.visitor_hash
      ? a.listing_id < b.listing_id
        ? -1
        : 1
      : a.visitor_hash < b.visitor_hash
        ? -1
        : 1,
  );
  const newViews = new Map<string, number>();
  for (const part of chunks(rows)) {
    const inserted = await trx
      .insertInto("listing_views")
      .values(part)
      .onConflict((oc) => oc.doNothing())
      .returning("listing_id")
      .execute();
    for (const { listing_id } of inserted)
      newViews.set(listing_id, (newViews.get(listing_id) ?? 0) + 1);
  }

  // Listings by the number of new views they got: one update of each kind per number.
  const byAmount = groupBy([...newViews.keys()], (listingId) => newViews.get(listingId)!);
  for (const [amount, listingIds] of byAmount) {
    for (const ids of chunks(listingIds.sort())) {
      await trx
        .updateTable("listings")
        .set((eb) => ({ view_count: eb("view_count", "+", amount) }))
        .where("id", "in", ids)
        .execute();
      await countOnListingDays(trx, ids, day, "views", amount);
    }
  }
  let counted = 0;
  for (const amount of newViews.values()) counted += amount;
  return counted;
}

function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

function chunks<T>(items: T[]): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) parts.push(items.slice(i, i + CHUNK));
  return parts;
}
