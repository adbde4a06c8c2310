import type { AnyDb } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.

/**
 * Account erasure: when a user's account was erased (null while it lives).
 * The row stays as a tombstone (no email, names or secrets of the person) so
 * the sales, shares and audit entries that name its id still hold together.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("users").addColumn("erased_at", "text").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("users").dropColumn("erased_at").execute();
}
