import { sql } from "kysely";
import { type AnyDb, index, notNull, ownedBy } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Quotas and fair job claiming:
// - jobs.user_id is the creator a job works for (null for jobs of nobody), so
//   the queue can take turns between creators and a ban can cancel their
//   queued work; jobs.claimed_at is when a worker last took the job, so the
//   queue can prefer the creator served least recently. Existing styling and
//   publishing jobs get their owner from the row their payload names.
// - usage_events keeps one row per upload and per style asked for, so the daily
//   quotas count work done even when its images were deleted since.

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("user_id", "text").execute();
  await db.schema.alterTable("jobs").addColumn("claimed_at", "text").execute();
  await sql`
    update jobs set user_id = (
      select user_id from stylized_images where id = json_extract(jobs.payload, '$.stylizedImageId')
    ) where kind = 'stylize-image' and json_valid(payload)
  `.execute(db);
  await sql`
    update jobs set user_id = (
      select user_id from listing_platforms where id = json_extract(jobs.payload, '$.publicationId')
    ) where kind = 'publish-to-platform' and json_valid(payload)
  `.execute(db);
  await index(db, "jobs_user_id_status", "jobs", ["user_id", "status"]).execute();
  await index(db, "jobs_user_id_claimed_at", "jobs", ["user_id", "claimed_at"]).execute();

  await db.schema
    .createTable("usage_events")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .$call(ownedBy("user_id", "users.id"))
    // "upload" or "stylize".
    .$call(notNull("text", "kind", "created_at"))
    .execute();
  await index(db, "usage_events_user_id_kind_created_at", "usage_events", [
    "user_id",
    "kind",
    "created_at",
  ]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("usage_events").execute();
  await db.schema.dropIndex("jobs_user_id_claimed_at").execute();
  await db.schema.dropIndex("jobs_user_id_status").execute();
  await db.schema.alterTable("jobs").dropColumn("claimed_at").execute();
  await db.schema.alterTable("jobs").dropColumn("user_id").execute();
}
