import { type AnyDb, byteText, index, notNullDefault } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Refund requests (issue 47): a buyer asks for a refund of a paid order within
// the refund window, with a reason; the admin approves it (the order is
// refunded) or declines it with a reason mailed to the buyer. One request per
// order (`order_id` is unique). `status` is `requested` until it is decided,
// then `refunded` (approved, or the order was refunded in full another way) or
// `declined`. `reason` is the buyer's words and `decline_reason` the admin's
// to the buyer; the buyer's erasure blanks both. `decided_by` is the admin
// who decided (null when the refund came another way).

export async function up(db: AnyDb): Promise<void> {
  const text = byteText(db);
  await db.schema
    .createTable("refund_requests")
    .addColumn("id", text, (c) => c.primaryKey())
    .addColumn("order_id", text, (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("status", text, notNullDefault("requested"))
    .addColumn("reason", text, (c) => c.notNull())
    .addColumn("created_at", text, (c) => c.notNull())
    .addColumn("decided_at", text)
    .addColumn("decided_by", text)
    .addColumn("decline_reason", text)
    .execute();
  await index(db, "refund_requests_by_order", "refund_requests", ["order_id"]).unique().execute();
  await index(db, "refund_requests_by_status", "refund_requests", [
    "status",
    "created_at",
  ]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("refund_requests").execute();
}
