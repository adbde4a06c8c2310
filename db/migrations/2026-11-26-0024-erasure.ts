import type { Kysely } from "kysely";

// Frozen: a migration never imports app code and never changes once landed.

/**
 * Account erasure: when a user's account was erased (null while it lives).
 * The row stays as a tombstone (no email, names or secrets of the person) so
 * the sales, shares and audit entries that name its id still hold together.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("erased_at", "text").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("erased_at").execute();
}
