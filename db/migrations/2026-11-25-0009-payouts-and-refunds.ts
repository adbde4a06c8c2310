import { sql } from "kysely";
import {
  type AnyDb,
  addColumns,
  index,
  notNull,
  notNullDefault,
  nullable,
  ownedBy,
  tableWithId,
} from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Payouts, refunds and disputes:
// - payout_accounts: each creator's payout account at a provider (Stripe
//   Connect Express, or the built-in test payout account), with its state as
//   the provider last reported it.
// - test_payout_accounts and test_payout_movements: the built-in test payout
//   provider's own books (what Stripe keeps on its side), so the whole flow
//   runs offline; a movement's idempotency key is unique, as at Stripe.
// - orders: the charge that paid (payment_intent_id, charge_id), how much of
//   it was refunded (refunded_cents, refunded_at, refund_reason), and an open or
//   closed dispute (dispute_id, dispute_status, disputed_at). New statuses:
//   'refunded' and 'disputed'.
// - earnings: each share's payout state (owed, transferred, held, reversed;
//   held_from remembers what a won dispute restores), the transfer that sent it
//   and what a refund took back: creator_reversed_cents + platform_reversed_cents
//   is the item's part of the order's refunds, and transfer_reversed_cents is
//   what has actually been reversed at the provider.

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("payout_accounts")
    .$call(ownedBy("user_id", "users.id"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("account_id", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("payouts_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("transfers_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("details_submitted", "integer", (c) => c.notNull().defaultTo(0))
    .$call(notNull("text", "created_at", "updated_at"))
    .addPrimaryKeyConstraint("payout_accounts_pk", ["user_id", "provider"])
    .execute();

  await tableWithId(db, "test_payout_accounts")
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("onboarded_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await tableWithId(db, "test_payout_movements")
    .$call(ownedBy("account_id", "test_payout_accounts.id"))
    // 'transfer' (to the account) or 'reversal' (of a transfer, back to the platform).
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .$call(nullable("text", "transfer_id", "transfer_group"))
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  const zero = notNullDefault(0);
  await addColumns(db, "orders", "text", ["payment_intent_id", "charge_id"]);
  await addColumns(db, "orders", "integer", ["refunded_cents"], zero);
  const disputes = ["dispute_id", "dispute_status", "disputed_at"];
  await addColumns(db, "orders", "text", ["refunded_at", "refund_reason", ...disputes]);
  await index(db, "orders_payment_intent_id", "orders", ["payment_intent_id"]).execute();
  await index(db, "orders_charge_id", "orders", ["charge_id"]).execute();
  await index(db, "orders_customer_email", "orders", ["customer_email"]).execute();

  await addColumns(db, "earnings", "text", ["status"], notNullDefault("owed"));
  await addColumns(db, "earnings", "text", ["held_from"]);
  await addColumns(
    db,
    "earnings",
    "integer",
    ["creator_reversed_cents", "platform_reversed_cents"],
    zero,
  );
  await addColumns(db, "earnings", "text", ["transfer_id"]);
  await addColumns(db, "earnings", "integer", ["transferred_cents"], zero);
  await addColumns(db, "earnings", "text", ["transferred_at"]);
  await addColumns(db, "earnings", "integer", ["transfer_reversed_cents"], zero);
  await addColumns(db, "earnings", "text", ["reversal_id", "reversed_at"]);
  await index(db, "earnings_creator_id_status", "earnings", ["creator_id", "status"]).execute();
  await index(db, "earnings_order_id", "earnings", ["order_id"]).execute();
  // Shares of sales made before payouts existed are owed like any other.
  await sql`update earnings set status = 'owed'`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("earnings_order_id").execute();
  await db.schema.dropIndex("earnings_creator_id_status").execute();
  for (const column of [
    "reversed_at",
    "reversal_id",
    "transfer_reversed_cents",
    "transferred_at",
    "transferred_cents",
    "transfer_id",
    "platform_reversed_cents",
    "creator_reversed_cents",
    "held_from",
    "status",
  ]) {
    await db.schema.alterTable("earnings").dropColumn(column).execute();
  }
  await db.schema.dropIndex("orders_customer_email").execute();
  await db.schema.dropIndex("orders_charge_id").execute();
  await db.schema.dropIndex("orders_payment_intent_id").execute();
  for (const column of [
    "disputed_at",
    "dispute_status",
    "dispute_id",
    "refund_reason",
    "refunded_at",
    "refunded_cents",
    "charge_id",
    "payment_intent_id",
  ]) {
    await db.schema.alterTable("orders").dropColumn(column).execute();
  }
  await db.schema.dropTable("test_payout_movements").execute();
  await db.schema.dropTable("test_payout_accounts").execute();
  await db.schema.dropTable("payout_accounts").execute();
}
