import type { Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

// Frozen: a migration never imports app code and never changes once landed.
//
// Reports of a listing or a storefront (issue 44): anyone may report, with a
// reason, an email and details; the report waits `unconfirmed` until the
// reporter confirms it by the mailed link (only the sha256 of the link's token
// is kept), is then `open` and due for a decision 48 hours later (`due_at`),
// and `closed` once the admin decided `remove` or `dismiss` with a note.
// `email_key` is the reporter's address in lower case: the same reporter
// reporting the same target again is the same report. `hid_listings` is 1
// while a confirmed `intimate` report keeps its target hidden.
//
// listings.hidden_at: set while a listing is hidden from every public page and
// API pending a report's decision (null otherwise).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // On PostgreSQL, text compares byte by byte ("C"), as on SQLite.
  const text = db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : "text";
  await db.schema.alterTable("listings").addColumn("hidden_at", text).execute();
  await db.schema
    .createTable("reports")
    .addColumn("id", text, (col) => col.primaryKey())
    .addColumn("listing_id", text)
    .addColumn("creator_id", text, (col) => col.notNull())
    .addColumn("handle", text)
    .addColumn("reason", text, (col) => col.notNull())
    .addColumn("email", text, (col) => col.notNull())
    .addColumn("email_key", text, (col) => col.notNull())
    .addColumn("details", text, (col) => col.notNull().defaultTo(""))
    .addColumn("token_hash", text, (col) => col.unique())
    .addColumn("status", text, (col) => col.notNull().defaultTo("unconfirmed"))
    .addColumn("hid_listings", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", text, (col) => col.notNull())
    .addColumn("confirmed_at", text)
    .addColumn("due_at", text)
    .addColumn("decision", text)
    .addColumn("note", text)
    .addColumn("decided_by", text)
    .addColumn("decided_at", text)
    .execute();
  await db.schema
    .createIndex("reports_by_status_due")
    .on("reports")
    .columns(["status", "due_at"])
    .execute();
  await db.schema
    .createIndex("reports_by_reporter_target")
    .on("reports")
    .columns(["email_key", "creator_id", "listing_id"])
    .execute();
  await db.schema.createIndex("reports_by_creator").on("reports").column("creator_id").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("reports").execute();
  await db.schema.alterTable("listings").dropColumn("hidden_at").execute();
}
