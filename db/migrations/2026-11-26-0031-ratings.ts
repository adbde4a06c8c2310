import { sql } from "kysely";
import { type AnyDb, index, notNull, tableWithId } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.

/**
 * Buyers' ratings: one per purchased item (`order_item_id` is unique), 1 to 5
 * stars and a short text, given from the buyer's library. The listing is
 * kept beside it so a listing's average and count are one indexed query.
 * A rating made before its order was refunded stays in the table but is not
 * counted (the query joins the paid orders).
 */
export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, "ratings")
    .addColumn("order_item_id", "text", (col) =>
      col.notNull().unique().references("order_items.id").onDelete("cascade"),
    )
    .$call(notNull("text", "order_id", "listing_id"))
    .addColumn("stars", "integer", (col) => col.notNull().check(sql`stars between 1 and 5`))
    .addColumn("text", "text", (col) => col.notNull().defaultTo(""))
    .$call(notNull("text", "created_at", "updated_at"))
    .execute();
  await index(db, "ratings_listing", "ratings", ["listing_id"]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("ratings").execute();
}
