import { sql } from "kysely";
import { addColumns, type AnyDb, index, notNull, ownedBy, tableWithId } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.

/**
 * The creator's own account: a public handle (unique, lower-case) and a short
 * bio; the consent to face processing (the version of the text agreed to and
 * when; null when never given or withdrawn); email changes waiting for their
 * mailed link (only a hash of the link's token is kept); and the browser each
 * web session and API token was made from, for the sessions list.
 */
export async function up(db: AnyDb): Promise<void> {
  const consent = ["face_consent_version", "face_consent_at"];
  await addColumns(db, "users", "text", ["handle", "bio", ...consent]);
  await sql`create unique index users_handle on users (handle) where handle is not null`.execute(
    db,
  );

  await tableWithId(db, "email_changes")
    .$call(ownedBy("user_id", "users.id"))
    .addColumn("new_email", "text", (col) => col.notNull())
    .addColumn("token_hash", "text", (col) => col.notNull().unique())
    .$call(notNull("text", "created_at", "expires_at"))
    .addColumn("used_at", "text")
    .execute();
  await index(db, "email_changes_user", "email_changes", ["user_id"]).execute();

  await db.schema.alterTable("sessions").addColumn("user_agent", "text").execute();
  await db.schema.alterTable("api_tokens").addColumn("user_agent", "text").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("api_tokens").dropColumn("user_agent").execute();
  await db.schema.alterTable("sessions").dropColumn("user_agent").execute();
  await db.schema.dropTable("email_changes").execute();
  await sql`drop index users_handle`.execute(db);
  for (const column of ["face_consent_at", "face_consent_version", "bio", "handle"]) {
    await db.schema.alterTable("users").dropColumn(column).execute();
  }
}
