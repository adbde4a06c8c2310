import type { Kysely } from "kysely";

// Frozen: a migration never imports app code and never changes once landed.

/**
 * The originals' retention (ORIGINALS_RETENTION_DAYS): an original whose file
 * was removed keeps its row, so the styles made from it stay, and records when
 * its file went.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("images").addColumn("original_removed_at", "text").execute();
}
