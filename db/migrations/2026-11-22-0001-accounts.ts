import { sql } from "kysely";
import { type AnyDb, index, notNull, nullable, ownedBy, tableWithId } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.

export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, "users")
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("first_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("last_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("profile_image_url", "text")
    .addColumn("banned", "integer", (c) => c.notNull().defaultTo(0))
    .$call(notNull("text", "created_at", "updated_at"))
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    .$call(ownedBy("user_id", "users.id"))
    .$call(notNull("text", "created_at", "expires_at"))
    .execute();
  await index(db, "sessions_user_id", "sessions", ["user_id"]).execute();

  await db.schema
    .createTable("api_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .$call(ownedBy("user_id", "users.id"))
    .$call(notNull("text", "created_at", "expires_at"))
    .addColumn("last_used_at", "text")
    .execute();
  await index(db, "api_tokens_user_id", "api_tokens", ["user_id"]).execute();

  await db.schema
    .createTable("auth_failures")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .$call(notNull("text", "bucket", "created_at"))
    .execute();
  await index(db, "auth_failures_bucket_created_at", "auth_failures", [
    "bucket",
    "created_at",
  ]).execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .$call(notNull("text", "actor_id", "action"))
    .$call(nullable("text", "subject_id", "detail"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await tableWithId(db, "jobs")
    .$call(notNull("text", "kind", "payload"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("queued"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull().defaultTo(3))
    .addColumn("run_at", "text", (c) => c.notNull())
    .$call(nullable("text", "locked_until", "last_error"))
    .$call(notNull("text", "created_at", "updated_at"))
    .execute();
  await index(db, "jobs_status_run_at", "jobs", ["status", "run_at"]).execute();

  await sql`select 1`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ["jobs", "audit_log", "auth_failures", "api_tokens", "sessions", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
