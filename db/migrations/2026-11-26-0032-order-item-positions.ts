import { sql } from "kysely";
import { type AnyDb, onPostgres } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// An order's items keep the cart's order in an explicit column. SQLite's
// rowid gave it for free; PostgreSQL has no insertion order. Existing rows on
// SQLite take their rowid, which is the order they were inserted in.

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("order_items")
    .addColumn("position", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  if (!onPostgres(db)) {
    await sql`update order_items set position = rowid`.execute(db);
  }
}
