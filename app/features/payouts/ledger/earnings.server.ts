import { sql } from "kysely";
import type { ShareStatus } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { newId } from "~/infra/ids.server";
import { CREATOR_SHARE_PERCENT } from "~/features/payouts/types";
import { centsToDollarAmount, centsToPriceString } from "~/lib/money";
import { roundHalfToEven } from "~/features/payouts/ledger/shares.server";

/**
 * The earnings ledger: one row per sold item, the creator's share and the
 * platform's fee in integer cents that add up to the item's price exactly.
 *
 * Rounding: the creator's 85% is rounded half to even (banker's rounding) to
 * whole cents and the platform keeps the remainder. 85% of a whole number of
 * cents has a fraction in steps of 0.05 cent, so each side is within half a
 * cent of its exact share and, over many sales, neither side is favoured
 * (always rounding down would shave up to 0.95 cent off every creator sale).
 */
export function splitSale(priceCents: number): { creatorCents: number; platformCents: number } {
  if (!Number.isSafeInteger(priceCents) || priceCents < 0)
    throw new Error(`Not a price in cents: ${priceCents}`);
  const creatorCents = roundHalfToEven(priceCents * CREATOR_SHARE_PERCENT, 100);
  return { creatorCents, platformCents: priceCents - creatorCents };
}

/** An item of a paid order, as the ledger records its sale. */
export interface SoldItem {
  id: string;
  order_id: string;
  creator_id: string;
  listing_id: string;
  price_cents: number;
  /** What a discount code took off the price (the shares are computed on the rest). */
  discount_cents?: number;
}

/**
 * Writes the ledger's row of each item of a paid order (in the fulfilling
 * transaction): the creator's share and the platform's fee (splitSale). A sale
 * in the built-in test checkout is marked `test_mode` (no money moved). One row
 * per item: earnings.order_item_id is UNIQUE and a second call adds nothing.
 */
export async function recordSale(
  trx: DB,
  {
    items,
    testMode,
    soldElsewhere = false,
    now,
  }: {
    items: readonly SoldItem[];
    testMode: boolean;
    /**
     * A sale made in the creator's own Shopify store: the buyer paid the
     * creator there, so the whole price is the creator's, no fee is ours and
     * nothing is owed through us (status `elsewhere`; docs/decisions/073).
     */
    soldElsewhere?: boolean;
    now: Date;
  },
): Promise<void> {
  const stamp = now.toISOString();
  for (const item of items) {
    const { creatorCents, platformCents } = soldElsewhere
      ? { creatorCents: item.price_cents, platformCents: 0 }
      : splitSale(item.price_cents - (item.discount_cents ?? 0));
    await trx
      .insertInto("earnings")
      .values({
        id: newId(),
        order_item_id: item.id,
        order_id: item.order_id,
        creator_id: item.creator_id,
        listing_id: item.listing_id,
        amount_cents: creatorCents,
        platform_fee_cents: platformCents,
        test_mode: testMode ? 1 : 0,
        created_at: stamp,
        ...(soldElsewhere ? { status: "elsewhere" as const } : {}),
      })
      .onConflict((oc) => oc.column("order_item_id").doNothing())
      .execute();
  }
}

/**
 * Which ledger rows the sums take: with includeTestSales false (a production
 * server) the sales of the built-in test checkout (earnings.test_mode = 1) are
 * left out of every total.
 */
export interface SalesScope {
  includeTestSales: boolean;
}

export interface CreatorTotals {
  /** The creator's share of every sale, less what refunds took back, in cents. */
  earningsCents: number;
  /** Items sold and not refunded in full. */
  sales: number;
  /** Active listings. */
  listed: number;
  /** Times the creator's listings were shown on the marketplace to other people. */
  views: number;
}

/** The sums the dashboard's stat cards and GET /api/token-stats show. */
export async function creatorTotals(
  db: DB,
  userId: string,
  scope: SalesScope,
): Promise<CreatorTotals> {
  const [earned, listings] = await Promise.all([
    db
      .selectFrom("earnings")
      .select([
        sql<number>`coalesce(sum(amount_cents - creator_reversed_cents), 0)`.as("cents"),
        sql<number>`coalesce(sum(case when status = 'reversed' then 0 else 1 end), 0)`.as("sales"),
      ])
      .where("creator_id", "=", userId)
      .$if(!scope.includeTestSales, (qb) => qb.where("test_mode", "=", 0))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("listings")
      .select([
        sql<number>`coalesce(sum(case when status = 'active' then 1 else 0 end), 0)`.as("listed"),
        sql<number>`coalesce(sum(view_count), 0)`.as("views"),
      ])
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    earningsCents: Number(earned.cents),
    sales: Number(earned.sales),
    listed: Number(listings.listed),
    views: Number(listings.views),
  };
}

/**
 * GET /api/token-earnings: amounts are numeric strings in dollars, the creator's share.
 * Every sale is listed, a test-checkout sale with `testMode: true`; outside the scope
 * (a production server) test sales are not part of totalEarnings.
 */
export interface EarningsSummary {
  totalEarnings: number;
  records: {
    id: string;
    amount: string;
    /** The sold item's own reference (one per item sold); the order id is the buyer's, not the creator's. */
    saleReference: string;
    imageId: string | null;
    listingId: string;
    createdAt: string;
    testMode: boolean;
    /** Where the share is: owed, transferred, held (a dispute is open) or reversed. */
    status: ShareStatus;
    /** Dollars: what refunds took back of the share. */
    reversed: string;
  }[];
}

export async function creatorEarnings(
  db: DB,
  userId: string,
  scope: SalesScope,
): Promise<EarningsSummary> {
  const rows = await db
    .selectFrom("earnings as e")
    .innerJoin("listings as l", "l.id", "e.listing_id")
    .select([
      "e.id",
      "e.amount_cents",
      "e.creator_reversed_cents",
      "e.status",
      "e.order_item_id",
      "e.listing_id",
      "e.created_at",
      "e.test_mode",
      "l.stylized_image_id",
    ])
    .where("e.creator_id", "=", userId)
    .orderBy("e.created_at", "desc")
    .orderBy("e.id", "desc")
    .execute();
  const total = rows
    .filter((row) => scope.includeTestSales || row.test_mode === 0)
    .reduce((sum, row) => sum + row.amount_cents - row.creator_reversed_cents, 0);
  return {
    totalEarnings: centsToDollarAmount(total),
    records: rows.map((row) => ({
      id: row.id,
      amount: centsToPriceString(row.amount_cents),
      saleReference: row.order_item_id,
      imageId: row.stylized_image_id,
      listingId: row.listing_id,
      createdAt: row.created_at,
      testMode: row.test_mode === 1,
      status: row.status,
      reversed: centsToPriceString(row.creator_reversed_cents),
    })),
  };
}
