import { sql } from "kysely";
import type { AnyDb } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.

/**
 * Web sessions remember when they were last used, so one left idle ends
 * before its full life (SESSION_IDLE_DAYS). Existing sessions count as seen
 * when they were made.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("last_seen_at", "text").execute();
  await sql`update sessions set last_seen_at = created_at`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("sessions").dropColumn("last_seen_at").execute();
}
