import type { DB } from "~/infra/db.server";
import type { DownloadFile } from "~/infra/api-entry.server";
import { csvReportFile } from "~/infra/csv-report-file.server";
import { compareCsvText, csvAmount, csvLine } from "~/lib/csv";
import { isReverseCharge } from "~/features/market/checkout/checkout-tax";
import { sharesPartOfRefund } from "~/features/market/orders/refunds.server";

/**
 * The operator's tax report (the admin's Orders screen's download and GET
 * /api/admin/tax.csv; docs/decisions/102): the sales of orders that were paid
 * (paid, refunded or disputed) with their tax, one row per UTC month of
 * payment, buyer's country, currency and test or not, for the operator's VAT
 * (OSS, UK) and sales tax returns. Amounts in the currency's units, two decimals:
 * - sales: what was sold before tax (subtotal less discount), reverse-charged
 *   sales included; reverse_charge_sales: the part of it with no VAT because a
 *   business's VAT number moved it to the buyer;
 * - tax: the tax collected; total: sales + tax, what the buyers paid;
 * - refunded_sales and refunded_tax: what refunds (and lost disputes) gave
 *   back of them (the tax in proportion), against the month of the sale.
 * `country` is empty when the buyer gave none. Sales in the built-in test
 * checkout (no money moved) are rows of their own with test "yes".
 */

export const TAX_CSV_COLUMNS = [
  "month",
  "country",
  "currency",
  "test",
  "orders",
  "sales",
  "reverse_charge_sales",
  "tax",
  "total",
  "refunded_sales",
  "refunded_tax",
] as const;

const SOLD_STATES = ["paid", "refunded", "disputed"] as const;

export interface MonthlyTaxRow {
  /** YYYY-MM (UTC) of the payment. */
  month: string;
  /** ISO 3166-1 alpha-2, or "" when not known. */
  country: string;
  /** ISO 4217, upper case. */
  currency: string;
  test: boolean;
  orders: number;
  salesCents: number;
  reverseChargeSalesCents: number;
  taxCents: number;
  totalCents: number;
  refundedSalesCents: number;
  refundedTaxCents: number;
}

/** Every paid order's month, country, currency and amounts, summed per row; oldest month first, then country, currency, real before test. */
export async function monthlyTaxRows(db: DB): Promise<MonthlyTaxRow[]> {
  const orders = await db
    .selectFrom("orders")
    .select([
      "paid_at",
      "country",
      "currency",
      "provider",
      "subtotal_cents",
      "discount_cents",
      "tax_cents",
      "total_cents",
      "refunded_cents",
      "vat_number",
    ])
    .where("status", "in", SOLD_STATES)
    .where("paid_at", "is not", null)
    // A sale in a creator's own Shopify store was taxed there.
    .where("provider", "!=", "shopify")
    .execute();
  const rows = new Map<string, MonthlyTaxRow>();
  for (const order of orders) {
    const row: MonthlyTaxRow = {
      month: order.paid_at!.slice(0, 7),
      country: order.country ?? "",
      currency: order.currency.toUpperCase(),
      test: order.provider === "test",
      orders: 0,
      salesCents: 0,
      reverseChargeSalesCents: 0,
      taxCents: 0,
      totalCents: 0,
      refundedSalesCents: 0,
      refundedTaxCents: 0,
    };
    const key = [row.month, row.country, row.currency, row.test].join("|");
    const sum = rows.get(key) ?? row;
    rows.set(key, sum);
    const sales = Number(order.subtotal_cents) - Number(order.discount_cents);
    const refundedSales = sharesPartOfRefund(order, Number(order.refunded_cents));
    sum.orders += 1;
    sum.salesCents += sales;
    if (isReverseCharge(order)) sum.reverseChargeSalesCents += sales;
    sum.taxCents += Number(order.tax_cents);
    sum.totalCents += Number(order.total_cents);
    sum.refundedSalesCents += refundedSales;
    sum.refundedTaxCents += Number(order.refunded_cents) - refundedSales;
  }
  return [...rows.values()].sort(
    (a, b) =>
      compareCsvText(a.month, b.month) ||
      compareCsvText(a.country, b.country) ||
      compareCsvText(a.currency, b.currency) ||
      Number(a.test) - Number(b.test),
  );
}

/** The CSV text: a header line, then one line per row (CRLF, RFC 4180). */
export function taxCsv(rows: readonly MonthlyTaxRow[]): string {
  let text = csvLine(TAX_CSV_COLUMNS);
  for (const row of rows)
    text += csvLine([
      row.month,
      row.country,
      row.currency,
      row.test ? "yes" : "no",
      row.orders,
      ...[
        row.salesCents,
        row.reverseChargeSalesCents,
        row.taxCents,
        row.totalCents,
        row.refundedSalesCents,
        row.refundedTaxCents,
      ].map(csvAmount),
    ]);
  return text;
}

/** The admin's monthly tax report as a file to download (selfie-studio-tax-YYYY-MM-DD.csv). */
export async function taxCsvFile(db: DB, now: Date): Promise<DownloadFile> {
  return csvReportFile(taxCsv(await monthlyTaxRows(db)), "tax", now);
}
