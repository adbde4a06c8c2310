import type { Kysely } from "kysely";
import { sql } from "kysely";

// Frozen: a migration never imports app code and never changes once landed.

/**
 * Web sessions remember when they were last used, so one left idle ends
 * before its full life (SESSION_IDLE_DAYS). Existing sessions count as seen
 * when they were made.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("last_seen_at", "text").execute();
  await sql`update sessions set last_seen_at = created_at`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").dropColumn("last_seen_at").execute();
}
