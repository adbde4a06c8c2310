import { sql } from "kysely";
import { type AnyDb, byteText, notNull, ownedBy } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// listing_views and listing_cart_adds (one row per listing, visitor and day,
// so a visitor counts once a day) are keyed by day and visitor first: a
// visitor's listings of a day are then one range of the primary key (the
// per-visitor daily cap counts them), and the purge of old days is one range
// too, so the separate day index goes. The rows name a listing without a
// foreign key: they hold a hash and an id for a day or two, are written in
// batches that look the listings up themselves, and deleting a listing
// need not search them. The rows of the days kept are carried over.

const TABLES = ["listing_views", "listing_cart_adds"] as const;

export async function up(db: AnyDb): Promise<void> {
  // On PostgreSQL, text compares byte by byte ("C"), as on SQLite.
  const text = byteText(db);
  for (const table of TABLES) {
    const next = `${table}_by_visitor`;
    await db.schema
      .createTable(next)
      // YYYY-MM-DD (UTC).
      .$call(notNull(text, "day", "visitor_hash", "listing_id"))
      .addPrimaryKeyConstraint(`${table}_by_visitor_pk`, ["day", "visitor_hash", "listing_id"])
      .execute();
    await sql`insert into ${sql.table(next)} (day, visitor_hash, listing_id)
      select day, visitor_hash, listing_id from ${sql.table(table)}`.execute(db);
    await db.schema.dropTable(table).execute();
    await db.schema.alterTable(next).renameTo(table).execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of TABLES) {
    const previous = `${table}_by_listing`;
    await db.schema
      .createTable(previous)
      .$call(ownedBy("listing_id", "listings.id"))
      .$call(notNull("text", "visitor_hash", "day"))
      .addPrimaryKeyConstraint(`${table}_pk`, ["listing_id", "visitor_hash", "day"])
      .execute();
    await sql`insert into ${sql.table(previous)} (listing_id, visitor_hash, day)
      select v.listing_id, v.visitor_hash, v.day from ${sql.table(table)} v
      where v.listing_id in (select id from listings)`.execute(db);
    await db.schema.dropTable(table).execute();
    await db.schema.alterTable(previous).renameTo(table).execute();
    await db.schema.createIndex(`${table}_day`).on(table).column("day").execute();
  }
}
