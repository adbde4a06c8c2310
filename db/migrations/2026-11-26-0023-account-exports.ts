import { sql } from "kysely";
import { type AnyDb, index, notNull, nullable, ownedBy, tableWithId } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.

/**
 * A creator's exports of their own data: one row per export asked for, its
 * state (pending while the job builds the zip, then ready or failed), the job
 * that builds it, and the zip in the file store (`file_key`, under exports/)
 * with the time its download link stops working. An erasure removes these
 * rows and their files with the account.
 */
export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, "account_exports")
    .$call(ownedBy("user_id", "users.id"))
    .addColumn("status", "text", (col) => col.notNull().defaultTo("pending"))
    .$call(nullable("text", "job_id", "file_key"))
    .addColumn("bytes", "integer")
    .addColumn("error", "text")
    .$call(notNull("text", "created_at", "updated_at"))
    .$call(nullable("text", "ready_at", "expires_at"))
    .execute();
  await index(db, "account_exports_user", "account_exports", ["user_id", "created_at"]).execute();
  // One export per user at a time: at most one pending row each.
  await sql`create unique index account_exports_one_pending on account_exports (user_id) where status = 'pending'`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("account_exports").execute();
}
