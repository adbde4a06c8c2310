import type { AnyDb } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// Submission to stock agencies over SFTP (Adobe Stock):
// - integrations.account_name is the name the platform knows the creator by
//   (the SFTP username; the password stays in the sealed credentials);
// - integrations.host_key is the SFTP server's host key fingerprint
//   ("SHA256:..."), recorded when the connection is saved and required on
//   every later connection (trust on first use);
// - listing_platforms.details is JSON of what was sent (the uploaded file's
//   name, size and how it was enlarged), shown beside the publication.
// listing_platforms.status is plain text, so the new `submitted` state needs
// no change here.

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("integrations").addColumn("account_name", "text").execute();
  await db.schema.alterTable("integrations").addColumn("host_key", "text").execute();
  await db.schema.alterTable("listing_platforms").addColumn("details", "text").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("listing_platforms").dropColumn("details").execute();
  await db.schema.alterTable("integrations").dropColumn("host_key").execute();
  await db.schema.alterTable("integrations").dropColumn("account_name").execute();
}
