import { type AnyDb, index, nullable, tableWithId } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.

/**
 * The beta's waitlist: one row per address that asked to join (the address
 * is unique: asking twice keeps one row). The admin invites from it: an
 * invitation keeps only the sha256 of its link's random token, when it was
 * sent and when it stops working, and is spent (`invite_used_at`, the
 * account made in `user_id`) by registering through it.
 */
export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, "waitlist")
    .addColumn("email", "text", (col) => col.notNull().unique())
    .addColumn("created_at", "text", (col) => col.notNull())
    .$call(nullable("text", "invited_at", "invited_by"))
    .addColumn("invite_token_hash", "text", (col) => col.unique())
    .$call(nullable("text", "invite_expires_at", "invite_used_at"))
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("set null"))
    .execute();
  await index(db, "waitlist_created", "waitlist", ["created_at"]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("waitlist").execute();
}
