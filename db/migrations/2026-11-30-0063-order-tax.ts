import { sql } from "kysely";
import { type AnyDb, addColumns, byteText, notNullDefault } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Tax on orders (docs/decisions/102). total_cents stays what the buyer pays:
// subtotal_cents - discount_cents + tax_cents.
// - subtotal_cents: the items' prices; discount_cents: 0 until discount codes
//   come; tax_cents: the VAT or sales tax collected (never a creator's share);
// - tax_rate_bps: the rate the built-in test checkout charged, in basis
//   points (null when none was, or when Stripe Tax computed it);
// - country: where the buyer is (ISO 3166-1 alpha-2), or null;
// - vat_number: the buyer's VAT number, only when the reverse charge applied.
// Existing orders: subtotal = total, no discount, no tax.

export async function up(db: AnyDb): Promise<void> {
  await addColumns(
    db,
    "orders",
    "integer",
    ["subtotal_cents", "discount_cents", "tax_cents"],
    notNullDefault(0),
  );
  await addColumns(db, "orders", "integer", ["tax_rate_bps"]);
  await addColumns(db, "orders", byteText(db), ["country", "vat_number"]);
  await sql`update orders set subtotal_cents = total_cents`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const column of [
    "vat_number",
    "country",
    "tax_rate_bps",
    "tax_cents",
    "discount_cents",
    "subtotal_cents",
  ])
    await db.schema.alterTable("orders").dropColumn(column).execute();
}
