import type { Kysely } from "kysely";
import { sql } from "kysely";
import { onPostgres } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// A job remembers the id of the request that queued it (or of the job that
// did), so the worker's log lines for the job carry the same request id.
// On PostgreSQL the column compares byte by byte ("C"), as SQLite's text does.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = onPostgres(db);
  await db.schema
    .alterTable("jobs")
    .addColumn("request_id", postgres ? sql`text collate "C"` : "text")
    .execute();
}
