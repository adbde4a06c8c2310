import { sql } from "kysely";
import type { DB } from "~/infra/db.server";
import type { DownloadFile } from "~/infra/api-entry.server";
import { csvReportFile } from "~/infra/csv-report-file.server";
import { compareCsvText, csvAmount, csvLine } from "~/lib/csv";
import { LICENSE_TYPES } from "~/lib/license-terms";

/**
 * A creator's monthly sales as a CSV file (the analytics screen's download and
 * GET /api/token-analytics/sales.csv; docs/decisions/099): one row per UTC
 * month of payment, listing, licence tier (standard, extended or exclusive; an
 * item sold before the tiers counts as standard: decision 101), test or not, and currency, for the
 * creator's own items of orders that were paid (paid, refunded or disputed;
 * never a pending, failed or expired checkout). Amounts in the currency's
 * units with two decimals:
 * - gross: the items' prices; discount: what discount codes took off them (decision 103);
 * - refunded: what refunds (and lost disputes) took back of those items, as
 *   the earnings ledger split it, booked against the month of the sale;
 * - creator_share and platform_fee: the ledger's shares less their parts of
 *   those refunds, so gross - discount - refunded = creator_share + platform_fee.
 * A sale in the built-in test checkout (provider `test`, no money moved) is a
 * row of its own with test "yes". Nothing of the buyer is in the file.
 */

export const SALES_CSV_COLUMNS = [
  "month",
  "listing_id",
  "title",
  "licence",
  "test",
  "items_sold",
  "gross",
  "discount",
  "refunded",
  "creator_share",
  "platform_fee",
  "currency",
] as const;

/** The order states whose items were sold (a refunded or disputed order was paid first). */
const SOLD_STATES = ["paid", "refunded", "disputed"] as const;

export interface MonthlySalesRow {
  /** YYYY-MM (UTC) of the payment. */
  month: string;
  listingId: string;
  title: string;
  licence: string;
  test: boolean;
  itemsSold: number;
  grossCents: number;
  discountCents: number;
  refundedCents: number;
  creatorShareCents: number;
  platformFeeCents: number;
  /** ISO 4217, upper case ("USD"). */
  currency: string;
}

/** The creator's rows, oldest month first, then by title, listing, real before test. */
export async function monthlySalesOf(db: DB, creatorId: string): Promise<MonthlySalesRow[]> {
  const month = sql<string>`substr(o.paid_at, 1, 7)`;
  const test = sql<number>`case when o.provider = 'test' then 1 else 0 end`;
  const licence = sql<string>`coalesce(i.license_type, 'standard')`;
  const rows = await db
    .selectFrom("order_items as i")
    .innerJoin("orders as o", "o.id", "i.order_id")
    .leftJoin("earnings as e", "e.order_item_id", "i.id")
    .leftJoin("listings as l", "l.id", "i.listing_id")
    .select([
      month.as("month"),
      "i.listing_id as listing_id",
      test.as("test"),
      licence.as("licence"),
      "o.currency as currency",
      sql<string>`coalesce(max(l.title), max(i.title))`.as("title"),
      sql<number>`count(*)`.as("items"),
      sql<number>`sum(i.price_cents)`.as("gross"),
      sql<number>`sum(i.discount_cents)`.as("discount"),
      sql<number>`sum(coalesce(e.creator_reversed_cents, 0) + coalesce(e.platform_reversed_cents, 0))`.as(
        "refunded",
      ),
      sql<number>`sum(coalesce(e.amount_cents, 0) - coalesce(e.creator_reversed_cents, 0))`.as(
        "creator_share",
      ),
      sql<number>`sum(coalesce(e.platform_fee_cents, 0) - coalesce(e.platform_reversed_cents, 0))`.as(
        "platform_fee",
      ),
    ])
    .where("i.creator_id", "=", creatorId)
    .where("o.status", "in", SOLD_STATES)
    .where("o.paid_at", "is not", null)
    .groupBy([month, "i.listing_id", licence, test, "o.currency"])
    .execute();
  return rows
    .map((row) => ({
      month: row.month,
      listingId: row.listing_id,
      title: row.title,
      licence: row.licence,
      test: Number(row.test) === 1,
      itemsSold: Number(row.items),
      grossCents: Number(row.gross),
      discountCents: Number(row.discount),
      refundedCents: Number(row.refunded),
      creatorShareCents: Number(row.creator_share),
      platformFeeCents: Number(row.platform_fee),
      currency: row.currency.toUpperCase(),
    }))
    .sort(
      (a, b) =>
        compareCsvText(a.month, b.month) ||
        compareCsvText(a.title, b.title) ||
        compareCsvText(a.listingId, b.listingId) ||
        tierOrder(a.licence) - tierOrder(b.licence) ||
        Number(a.test) - Number(b.test) ||
        compareCsvText(a.currency, b.currency),
    );
}

/** Standard, Extended, Exclusive. */
function tierOrder(licence: string): number {
  return (LICENSE_TYPES as readonly string[]).indexOf(licence);
}

/** The CSV text: a header line, then one line per row (CRLF, RFC 4180). */
export function salesCsv(rows: readonly MonthlySalesRow[]): string {
  let text = csvLine(SALES_CSV_COLUMNS);
  for (const row of rows)
    text += csvLine([
      row.month,
      row.listingId,
      row.title,
      row.licence,
      row.test ? "yes" : "no",
      row.itemsSold,
      ...[
        row.grossCents,
        row.discountCents,
        row.refundedCents,
        row.creatorShareCents,
        row.platformFeeCents,
      ].map(csvAmount),
      row.currency,
    ]);
  return text;
}

/** The creator's monthly sales as a file to download (selfie-studio-sales-YYYY-MM-DD.csv). */
export async function salesCsvFile(db: DB, creatorId: string, now: Date): Promise<DownloadFile> {
  return csvReportFile(salesCsv(await monthlySalesOf(db, creatorId)), "sales", now);
}
