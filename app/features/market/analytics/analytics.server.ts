import { sql } from "kysely";
import type { DB } from "~/infra/db.server";
import { lockForTransaction } from "~/infra/sql-dialect.server";
import { centsToPriceString } from "~/lib/money";
import { discountCodeSalesOf } from "~/features/market/analytics/discount-code-sales.server";
import { bundleSalesOf } from "~/features/market/analytics/bundle-sales.server";
import {
  conversionOf,
  type AnalyticsDay,
  type AnalyticsListing,
  type AnalyticsRange,
  type CreatorAnalytics,
} from "~/features/market/analytics/analytics";
import { followerCountsOf } from "~/features/market/analytics/follower-counts.server";

/**
 * A creator's analytics, aggregated in SQL:
 * - views, add-to-carts and saves from listing_days (one row per listing and UTC day,
 *   counted once per visitor and day as they happen; read through the index
 *   (creator_id, day));
 * - sales and earnings from the earnings ledger (one row per item sold, read
 *   through (creator_id, created_at)): the creator's share less what refunds
 *   took back, a sale refunded in full not counted as a sale, as on the
 *   dashboard's stat cards. Where test-checkout sales are not earnings (a
 *   production server), they are counted apart as testSales;
 * - followers from the confirmed follows (counts only).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of `now`, YYYY-MM-DD. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Adds `amount` (one by default) to a counter of the listings' day rows (made on the day's first count). */
export async function countOnListingDays(
  db: DB,
  listingIds: string[],
  day: string,
  counter: "views" | "cart_adds" | "saves",
  amount = 1,
): Promise<void> {
  if (listingIds.length === 0) return;
  await db
    .insertInto("listing_days")
    .columns(["listing_id", "creator_id", "day", counter])
    .expression(
      db
        .selectFrom("listings")
        .select([
          "id",
          "user_id",
          sql<string>`cast(${day} as text)`.as("day"),
          sql<number>`cast(${amount} as integer)`.as(counter),
        ])
        .where("id", "in", listingIds),
    )
    .onConflict((oc) =>
      oc
        .columns(["listing_id", "day"])
        .doUpdateSet((eb) => ({ [counter]: eb(`listing_days.${counter}`, "+", amount) })),
    )
    .execute();
}

/**
 * Listings one visitor's adds to carts count for on one day (a full cart is
 * MAX_CART_ITEMS); past it, that visitor's adds count nothing until the next day.
 */
export const CART_ADDS_COUNTED_PER_VISITOR_DAY = 50;

/**
 * Counts an add-to-cart of a live listing, once per visitor, listing and UTC
 * day, never the creator's own, and at most CART_ADDS_COUNTED_PER_VISITOR_DAY
 * listings per visitor and day. True when it counted. Old days are forgotten
 * by the hourly forgetOldVisitorDays, not here.
 */
export function recordCartAdd(
  db: DB,
  listingId: string,
  viewer: { userId: string | null; visitorHash: string },
  now: Date,
): Promise<boolean> {
  return countOncePerVisitorDay(
    db,
    { visitors: "listing_cart_adds", counter: "cart_adds", cap: CART_ADDS_COUNTED_PER_VISITOR_DAY },
    listingId,
    viewer,
    now,
  );
}

/**
 * Counts one act of a visitor on a live listing (an add to a cart, a save) on
 * the listing's day row, once per visitor, listing and UTC day, never the
 * creator's own, and at most `cap` listings per visitor and day; the visitor
 * is a keyed hash in `visitors` (forgotten by forgetOldVisitorDays). True
 * when it counted.
 */
export async function countOncePerVisitorDay(
  db: DB,
  kind: {
    visitors: "listing_cart_adds" | "listing_saves";
    counter: "cart_adds" | "saves";
    cap: number;
  },
  listingId: string,
  viewer: { userId: string | null; visitorHash: string },
  now: Date,
): Promise<boolean> {
  const day = utcDay(now);
  return db.transaction().execute(async (trx) => {
    const listing = await trx
      .selectFrom("listings")
      .select("user_id")
      .where("id", "=", listingId)
      .where("status", "=", "active")
      .executeTakeFirst();
    if (!listing || listing.user_id === viewer.userId) return false;
    // One visitor's acts one after another (two processes could otherwise both pass the cap).
    await lockForTransaction(trx, `${kind.visitors}:${viewer.visitorHash}`);
    const { count } = await trx
      .selectFrom(kind.visitors)
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("day", "=", day)
      .where("visitor_hash", "=", viewer.visitorHash)
      .executeTakeFirstOrThrow();
    if (Number(count) >= kind.cap) return false;
    const fresh = await trx
      .insertInto(kind.visitors)
      .values({ day, visitor_hash: viewer.visitorHash, listing_id: listingId })
      .onConflict((oc) => oc.doNothing())
      .returning("listing_id")
      .execute();
    if (fresh.length === 0) return false;
    await countOnListingDays(trx, [listingId], day, kind.counter);
    return true;
  });
}

/** The days of a range ending on `now`'s UTC day, oldest first. */
export function rangeDays(range: AnalyticsRange, now: Date): string[] {
  const today = Date.parse(`${utcDay(now)}T00:00:00.000Z`);
  return Array.from({ length: range }, (_, i) =>
    utcDay(new Date(today - (range - 1 - i) * DAY_MS)),
  );
}

/** The creator's numbers per day of the range and per listing. */
export async function creatorAnalytics(
  db: DB,
  userId: string,
  range: AnalyticsRange,
  now: Date,
  scope: { includeTestSales: boolean },
): Promise<CreatorAnalytics> {
  const days = rangeDays(range, now);
  const from = days[0]!;
  const to = days[days.length - 1]!;
  // The ledger's created_at is an ISO instant: the range is [from 00:00, the day after `to`).
  const fromStamp = `${from}T00:00:00.000Z`;
  const untilStamp = new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY_MS).toISOString();
  const ledger = () =>
    db
      .selectFrom("earnings")
      .where("creator_id", "=", userId)
      .where("created_at", ">=", fromStamp)
      .where("created_at", "<", untilStamp);
  const counters = () =>
    db
      .selectFrom("listing_days")
      .where("creator_id", "=", userId)
      .where("day", ">=", from)
      .where("day", "<=", to);
  // Outside the scope (a production server), a test-checkout sale is no sale and no earnings; it is counted apart.
  const outside = scope.includeTestSales ? sql<boolean>`(1 = 0)` : sql<boolean>`(test_mode = 1)`;
  const salesSums = [
    sql<number>`coalesce(sum(case when status = 'reversed' or ${outside} then 0 else 1 end), 0)`.as(
      "sales",
    ),
    sql<number>`coalesce(sum(case when ${outside} then 0 else amount_cents - creator_reversed_cents end), 0)`.as(
      "cents",
    ),
    sql<number>`coalesce(sum(case when status != 'reversed' and ${outside} then 1 else 0 end), 0)`.as(
      "test_sales",
    ),
  ];

  const [countsByDay, salesByDay, countsByListing, salesByListing, live] = await Promise.all([
    counters()
      .select([
        "day",
        sql<number>`sum(views)`.as("views"),
        sql<number>`sum(cart_adds)`.as("cart_adds"),
        sql<number>`sum(saves)`.as("saves"),
      ])
      .groupBy("day")
      .execute(),
    ledger()
      .select([sql<string>`substr(created_at, 1, 10)`.as("day"), ...salesSums])
      .groupBy(sql`substr(created_at, 1, 10)`)
      .execute(),
    counters()
      .select([
        "listing_id",
        sql<number>`sum(views)`.as("views"),
        sql<number>`sum(saves)`.as("saves"),
      ])
      .groupBy("listing_id")
      .execute(),
    ledger()
      .select(["listing_id", ...salesSums])
      .groupBy("listing_id")
      .execute(),
    db
      .selectFrom("listings")
      .select("id")
      .where("user_id", "=", userId)
      .where("status", "=", "active")
      .execute(),
  ]);
  const followers = await followerCountsOf(db, userId, fromStamp, untilStamp);
  const sold = { fromStamp, untilStamp, includeTestSales: scope.includeTestSales };
  const bundles = await bundleSalesOf(db, userId, sold);
  const discountCodes = await discountCodeSalesOf(db, userId, sold);

  const countsOf = new Map(countsByDay.map((row) => [row.day, row]));
  const salesOf = new Map(salesByDay.map((row) => [row.day, row]));
  const dayRows: AnalyticsDay[] = days.map((date) => {
    const views = Number(countsOf.get(date)?.views ?? 0);
    const sales = Number(salesOf.get(date)?.sales ?? 0);
    return {
      date,
      views,
      addsToCart: Number(countsOf.get(date)?.cart_adds ?? 0),
      saves: Number(countsOf.get(date)?.saves ?? 0),
      sales,
      conversion: conversionOf(sales, views),
      earnings: centsToPriceString(Number(salesOf.get(date)?.cents ?? 0)),
      testSales: Number(salesOf.get(date)?.test_sales ?? 0),
    };
  });

  const viewsOf = new Map(countsByListing.map((row) => [row.listing_id, Number(row.views)]));
  const savesOf = new Map(countsByListing.map((row) => [row.listing_id, Number(row.saves)]));
  const listingSalesOf = new Map(salesByListing.map((row) => [row.listing_id, row]));
  const ids = [
    ...new Set([...live.map((row) => row.id), ...viewsOf.keys(), ...listingSalesOf.keys()]),
  ];
  const titles = new Map<string, string>();
  // At most a few hundred ids per query (SQLite's bound parameters).
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom("listings")
      .select(["id", "title"])
      .where("id", "in", ids.slice(i, i + 500))
      .execute();
    for (const row of rows) titles.set(row.id, row.title);
  }
  const listings: AnalyticsListing[] = ids.map((listingId) => {
    const views = viewsOf.get(listingId) ?? 0;
    const sales = Number(listingSalesOf.get(listingId)?.sales ?? 0);
    return {
      listingId,
      title: titles.get(listingId) ?? "",
      views,
      saves: savesOf.get(listingId) ?? 0,
      sales,
      conversion: conversionOf(sales, views),
      earnings: centsToPriceString(Number(listingSalesOf.get(listingId)?.cents ?? 0)),
    };
  });
  // Best earners first, then the most viewed.
  listings.sort(
    (a, b) =>
      Number(b.earnings) - Number(a.earnings) ||
      b.views - a.views ||
      a.title.localeCompare(b.title) ||
      a.listingId.localeCompare(b.listingId),
  );
  return { days: dayRows, listings, followers, bundles, discountCodes };
}
