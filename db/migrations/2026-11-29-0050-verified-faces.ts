import type { Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

// Frozen: a migration never imports app code and never changes once landed.
//
// A creator's verified face (decision record 083): the face descriptor made
// from a selfie (1024 numbers of the face description model, as little-endian
// 32-bit floats in base64: biometric data; the photo is never kept), when it
// was made, and the other account whose verified face is the same person's
// when there was one (flagged to the admin). One row a creator; deleted with
// the consent to face processing, on request, and with the account.
//
// images.likeness: how an upload compares with its creator's verified face,
// "self", "other" or "none" (no face in it); null when it was not compared
// (no verified face at the time, or the comparison is still to be made).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // On PostgreSQL, text compares byte by byte ("C"), as on SQLite.
  const text = db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : "text";
  await db.schema
    .createTable("verified_faces")
    .addColumn("user_id", text, (col) =>
      col.primaryKey().references("users.id").onDelete("cascade"),
    )
    .addColumn("descriptor", text, (col) => col.notNull())
    .addColumn("verified_at", text, (col) => col.notNull())
    .addColumn("same_face_user_id", text, (col) => col.references("users.id").onDelete("set null"))
    .execute();
  await db.schema.alterTable("images").addColumn("likeness", text).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("images").dropColumn("likeness").execute();
  await db.schema.dropTable("verified_faces").execute();
}
