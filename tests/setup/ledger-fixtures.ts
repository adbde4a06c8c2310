import crypto from "node:crypto";
import { sql } from "kysely";
import { engineOf } from "~/infra/sql-dialect.server";
import { getDb } from "~/infra/db.server";
import { tableNames } from "#tests/setup/db-tables";
import { listingRow } from "#tests/setup/table-rows";

/** Rows for admin tests: uploaded originals and sold items in the earnings ledger. */

const id = () => crypto.randomBytes(8).toString("hex");

export async function insertImage(userId: string, createdAt = new Date().toISOString()) {
  const imageId = id();
  await getDb()
    .insertInto("images")
    .values({
      id: imageId,
      user_id: userId,
      file_key: `originals/${imageId}.jpg`,
      width: 640,
      height: 480,
      bytes: 12345,
      mime_type: "image/jpeg",
      created_at: createdAt,
    })
    .execute();
  return imageId;
}

/** A listing of the creator's, sold once: the creator's share and the platform's fee land in the ledger. */
export async function insertSale(
  creatorId: string,
  { amountCents, feeCents }: { amountCents: number; feeCents: number },
) {
  const db = getDb();
  const now = new Date().toISOString();
  const listingId = id();
  const orderId = id();
  const itemId = id();
  await db
    .insertInto("listings")
    .values(
      listingRow({ id: listingId, user_id: creatorId, stylized_image_id: null }, now, {
        title: "Anime Style Selfie",
        price_cents: amountCents + feeCents,
        file_key: `listings/${listingId}.png`,
        file_mime_type: "image/png",
        source_file_key: `stylized/${listingId}.png`,
        width: 1024,
        height: 1024,
      }),
    )
    .execute();
  await db
    .insertInto("orders")
    .values({
      id: orderId,
      checkout_session_hash: `cs_test_${orderId}-hash`,
      license_id: `license-${orderId}`,
      provider: "test",
      status: "paid",
      customer_name: "Buyer",
      customer_email: "buyer@example.com",
      customer_company: null,
      total_cents: amountCents + feeCents,
      created_at: now,
      updated_at: now,
      paid_at: now,
    })
    .execute();
  await db
    .insertInto("order_items")
    .values({
      id: itemId,
      order_id: orderId,
      listing_id: listingId,
      creator_id: creatorId,
      title: "Anime Style Selfie",
      style: "anime",
      price_cents: amountCents + feeCents,
      file_key: `listings/${listingId}.png`,
      file_mime_type: "image/png",
      created_at: now,
    })
    .execute();
  await db
    .insertInto("earnings")
    .values({
      id: id(),
      order_item_id: itemId,
      order_id: orderId,
      creator_id: creatorId,
      listing_id: listingId,
      amount_cents: amountCents,
      platform_fee_cents: feeCents,
      created_at: now,
    })
    .execute();
  return { listingId, orderId };
}

/** Empties every table (not the migration bookkeeping), so each test starts from a clean database. */
export async function emptyDatabase() {
  const db = getDb();
  if (engineOf(db) === "postgres") {
    const tables = (await tableNames(db)).filter((name) => !name.startsWith("kysely_"));
    // One statement, so foreign keys between the emptied tables hold throughout.
    await sql`truncate ${sql.join(tables.map((name) => sql.table(name)))}`.execute(db);
    return;
  }
  // Ordinary and virtual tables; a virtual table's shadow tables are its own business (emptying the search index's would break it).
  const tables = await sql<{
    name: string;
  }>`select name from pragma_table_list where schema = 'main' and type in ('table', 'virtual') and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(
    db,
  );
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    for (const { name } of tables.rows) await sql`delete from ${sql.table(name)}`.execute(db);
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
