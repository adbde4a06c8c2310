import crypto from "node:crypto";
import { sql } from "kysely";
import { type AnyDb, index } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// - orders.license_id: the license page's own key (/licenses/{licenseId}), 128
//   random bits, given only to the buyer. The order id was the key before, and
//   every creator in the order knew it. Existing orders get one here.
// - orders.checkout_session_id becomes orders.checkout_session_hash: the
//   SHA-256 (hex) of the checkout session id. The public payment-status API
//   answers downloads for a session id, so a copy of the database must not
//   hold one. Existing ids are hashed in place.
// - orders.checkout_url is dropped: it was never read, and it carried the
//   session id (Stripe's checkout address and the test checkout's both do).
//
// secure_delete is on while the clear ids are overwritten, so SQLite zeroes the
// old bytes instead of leaving them in free space.

const newLicenseId = () => crypto.randomBytes(16).toString("base64url");
const sha256 = (value: string) => crypto.createHash("sha256").update(value).digest("hex");

export async function up(db: AnyDb): Promise<void> {
  await sql`pragma secure_delete = on`.execute(db);
  await db.schema.alterTable("orders").addColumn("license_id", "text").execute();
  const orders = await db.selectFrom("orders").select(["id", "checkout_session_id"]).execute();
  await db.schema
    .alterTable("orders")
    .renameColumn("checkout_session_id", "checkout_session_hash")
    .execute();
  await db.schema.alterTable("orders").dropColumn("checkout_url").execute();
  for (const order of orders as { id: string; checkout_session_id: string | null }[]) {
    await db
      .updateTable("orders")
      .set({
        license_id: newLicenseId(),
        checkout_session_hash:
          order.checkout_session_id === null ? null : sha256(order.checkout_session_id),
      })
      .where("id", "=", order.id)
      .execute();
  }
  await index(db, "orders_license_id_unique", "orders", ["license_id"]).unique().execute();
  await sql`pragma secure_delete = off`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  // The clear session ids cannot come back: the column keeps the hashes under its old name.
  await db.schema.dropIndex("orders_license_id_unique").execute();
  await db.schema.alterTable("orders").dropColumn("license_id").execute();
  await db.schema
    .alterTable("orders")
    .renameColumn("checkout_session_hash", "checkout_session_id")
    .execute();
  await db.schema.alterTable("orders").addColumn("checkout_url", "text").execute();
}
