import type { AnyDb } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.

/**
 * The originals' retention (ORIGINALS_RETENTION_DAYS): an original whose file
 * was removed keeps its row, so the styles made from it stay, and records when
 * its file went.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("images").addColumn("original_removed_at", "text").execute();
}
