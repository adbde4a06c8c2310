import { sql } from "kysely";
import type { AnyDb } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// The marketplace's search index: an SQLite FTS5 table with the trigram
// tokenizer (substring matching, case-insensitive, like the LIKE '%q%' it
// replaces, but found through the index instead of reading every listing).
//
// It holds exactly the listings the marketplace shows: active, by a creator
// who is not banned. Triggers keep it in step with every writer:
// - a listing inserted, edited (title, description, tags), withdrawn or
//   re-activated, moved to another creator, or deleted (also by the cascade
//   from its creator's deletion);
// - a creator banned (their listings leave the index) or unbanned (their
//   active listings come back).
//
// listing_search_entries gives each indexed listing an integer id, the FTS
// row's rowid: listings have text ids, and their implicit rowid is not stable
// (VACUUM may renumber it). Entries are numbered in the order listings enter
// the index, so "rowid descending" is "newest indexed first": a search walks
// the newest matches first and stops at its cap.

const VISIBLE = (alias: "new" | "l") =>
  sql.raw(
    `${alias}.status = 'active' and exists (select 1 from users where users.id = ${alias}.user_id and users.banned = 0)`,
  );

export async function up(db: AnyDb): Promise<void> {
  await sql`create table listing_search_entries (
    id integer primary key,
    listing_id text not null unique
  )`.execute(db);
  await sql`create virtual table listing_search using fts5(
    title, description, tags,
    tokenize = 'trigram case_sensitive 0'
  )`.execute(db);

  await sql`create trigger listing_search_after_insert after insert on listings
    when ${VISIBLE("new")}
    begin
      insert into listing_search_entries (listing_id) values (new.id);
      insert into listing_search (rowid, title, description, tags)
        select id, new.title, new.description, new.tags from listing_search_entries where listing_id = new.id;
    end`.execute(db);

  // An edit keeps the listing's entry (its place in the newest-first walk); a
  // listing that stops being shown loses it; one that starts being shown gets a new one.
  await sql`create trigger listing_search_after_update after update of id, user_id, title, description, tags, status on listings
    begin
      delete from listing_search where rowid = (select id from listing_search_entries where listing_id = old.id);
      delete from listing_search_entries where listing_id = old.id and not (old.id = new.id and ${VISIBLE("new")});
      insert or ignore into listing_search_entries (listing_id) select new.id where ${VISIBLE("new")};
      insert into listing_search (rowid, title, description, tags)
        select id, new.title, new.description, new.tags from listing_search_entries where listing_id = new.id;
    end`.execute(db);

  await sql`create trigger listing_search_after_delete after delete on listings
    begin
      delete from listing_search where rowid = (select id from listing_search_entries where listing_id = old.id);
      delete from listing_search_entries where listing_id = old.id;
    end`.execute(db);

  // A ban takes the creator's listings out; an unban puts the active ones back (oldest first, so newest-indexed stays newest).
  await sql`create trigger listing_search_after_ban after update of banned on users
    when old.banned is not new.banned
    begin
      delete from listing_search where rowid in (
        select e.id from listing_search_entries e join listings l on l.id = e.listing_id where l.user_id = new.id
      );
      delete from listing_search_entries where listing_id in (select id from listings where user_id = new.id);
      insert into listing_search_entries (listing_id)
        select id from listings where user_id = new.id and status = 'active' and new.banned = 0
        order by created_at, id;
      insert into listing_search (rowid, title, description, tags)
        select e.id, l.title, l.description, l.tags
        from listing_search_entries e join listings l on l.id = e.listing_id
        where l.user_id = new.id;
    end`.execute(db);

  // The listings shown today, oldest first.
  await sql`insert into listing_search_entries (listing_id)
    select l.id from listings l where ${VISIBLE("l")} order by l.created_at, l.id`.execute(db);
  await sql`insert into listing_search (rowid, title, description, tags)
    select e.id, l.title, l.description, l.tags
    from listing_search_entries e join listings l on l.id = e.listing_id`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const trigger of [
    "listing_search_after_ban",
    "listing_search_after_delete",
    "listing_search_after_update",
    "listing_search_after_insert",
  ]) {
    await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
  }
  await sql`drop table if exists listing_search`.execute(db);
  await sql`drop table if exists listing_search_entries`.execute(db);
}
