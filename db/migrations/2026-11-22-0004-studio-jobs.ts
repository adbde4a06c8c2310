import { type AnyDb, index } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Job leases carry the claimant's token, so a worker whose lease expired (and
// whose job another worker reclaimed) can no longer complete or fail it.

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("locked_by", "text").execute();
  await index(db, "jobs_status_locked_until", "jobs", ["status", "locked_until"]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("jobs_status_locked_until").execute();
  await db.schema.alterTable("jobs").dropColumn("locked_by").execute();
}
