import crypto from "node:crypto";
import type { AnyDb } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// sessions.public_id and api_tokens.public_id: the id a web session or API
// token goes by in the sessions list (GET /api/account/sessions) and when it is
// revoked (DELETE /api/account/sessions/{id}). 128 random bits, unrelated to
// the secret: the stored hashes (id_hash, token_hash) are the lookup keys of
// the secrets and are never shown. Existing rows get one here.

const newPublicId = () => crypto.randomBytes(16).toString("base64url");

export async function up(db: AnyDb): Promise<void> {
  for (const [table, key] of [
    ["sessions", "id_hash"],
    ["api_tokens", "token_hash"],
  ] as const) {
    await db.schema.alterTable(table).addColumn("public_id", "text").execute();
    const rows = (await db.selectFrom(table).select(key).execute()) as Record<string, string>[];
    for (const row of rows) {
      await db
        .updateTable(table)
        .set({ public_id: newPublicId() })
        .where(key, "=", row[key])
        .execute();
    }
    await db.schema
      .createIndex(`${table}_public_id`)
      .on(table)
      .column("public_id")
      .unique()
      .execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ["sessions", "api_tokens"] as const) {
    await db.schema.dropIndex(`${table}_public_id`).execute();
    await db.schema.alterTable(table).dropColumn("public_id").execute();
  }
}
