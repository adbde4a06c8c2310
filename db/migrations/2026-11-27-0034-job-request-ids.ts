import { type AnyDb, byteText } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// A job remembers the id of the request that queued it (or of the job that
// did), so the worker's log lines for the job carry the same request id.
// On PostgreSQL the column compares byte by byte ("C"), as SQLite's text does.

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("request_id", byteText(db)).execute();
}
