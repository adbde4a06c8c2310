import { addColumns, type AnyDb, notNullDefault } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.

/**
 * Payouts beyond one country, and refunds undone:
 * - payout_accounts.country: the creator's country, asked before onboarding
 *   (null for accounts made before: the platform's country);
 * - test_payout_accounts.country and service_agreement: what Stripe keeps of
 *   an account, kept by the built-in test payout provider;
 * - earnings.reinstated_cents and reinstatement_transfer_id: money sent back
 *   to a creator after a reversal was undone (a lost dispute won on appeal);
 * - orders.dispute_lost_cents: what a lost dispute took back (recorded as a
 *   refund), given back once if the dispute is won on appeal;
 * - undone_refunds: each refund that failed after it was recorded, undone once.
 */
export async function up(db: AnyDb): Promise<void> {
  await addColumns(db, "payout_accounts", "text", ["country"]);
  await addColumns(db, "test_payout_accounts", "text", ["country"]);
  await addColumns(
    db,
    "test_payout_accounts",
    "text",
    ["service_agreement"],
    notNullDefault("full"),
  );
  await addColumns(db, "earnings", "integer", ["reinstated_cents"], notNullDefault(0));
  await addColumns(db, "earnings", "text", ["reinstatement_transfer_id"]);
  await addColumns(db, "orders", "integer", ["dispute_lost_cents"], notNullDefault(0));
  await db.schema
    .createTable("undone_refunds")
    .addColumn("refund_id", "text", (col) => col.primaryKey())
    .addColumn("order_id", "text", (col) => col.notNull())
    .addColumn("amount_cents", "integer", (col) => col.notNull())
    .addColumn("undone_at", "text", (col) => col.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("undone_refunds").execute();
  await db.schema.alterTable("orders").dropColumn("dispute_lost_cents").execute();
  await db.schema.alterTable("earnings").dropColumn("reinstatement_transfer_id").execute();
  await db.schema.alterTable("earnings").dropColumn("reinstated_cents").execute();
  await db.schema.alterTable("test_payout_accounts").dropColumn("service_agreement").execute();
  await db.schema.alterTable("test_payout_accounts").dropColumn("country").execute();
  await db.schema.alterTable("payout_accounts").dropColumn("country").execute();
}
