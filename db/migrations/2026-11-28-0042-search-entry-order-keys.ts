import { sql } from "kysely";
import { type AnyDb, listingSearchEntryKeptWhileShown } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// PostgreSQL only (SQLite's search index, FTS5, is untouched; decision 072).
// Each search entry also carries what a marketplace page is chosen by: the
// listing's created_at (its order), style and creator (its filters). A
// search then picks its page from the entries its walk has already read, and
// looks up only that page's listings (not every capped match, up to 500, to
// learn their dates). The triggers of the baseline write the three copies,
// and an edit of a listing's style or date reaches its entry too.

export async function up(db: AnyDb): Promise<void> {
  for (const statement of [
    sql`alter table "listing_search_entries"
      add column "created_at" text collate "C",
      add column "style" text collate "C",
      add column "user_id" text collate "C"`,
    sql`update "listing_search_entries" e
      set created_at = l.created_at, style = l.style, user_id = l.user_id
      from listings l where l.id = e.listing_id`,
    sql`alter table "listing_search_entries"
      alter column "created_at" set not null,
      alter column "style" set not null,
      alter column "user_id" set not null`,
    sql`create or replace function listing_search_on_listing() returns trigger language plpgsql as $$
      ${listingSearchEntryKeptWhileShown}
          insert into listing_search_entries (listing_id, title, description, tags, created_at, style, user_id)
            values (new.id, new.title, new.description, new.tags, new.created_at, new.style, new.user_id)
            on conflict (listing_id) do update
              set title = excluded.title, description = excluded.description, tags = excluded.tags,
                created_at = excluded.created_at, style = excluded.style, user_id = excluded.user_id;
        end if;
        return null;
      end
    $$`,
    sql`drop trigger listing_search_after_update on listings`,
    sql`create trigger listing_search_after_update
      after update of id, user_id, title, description, tags, status, style, created_at on listings
      for each row execute function listing_search_on_listing()`,
    sql`create or replace function listing_search_on_ban() returns trigger language plpgsql as $$
      begin
        delete from listing_search_entries
          where listing_id in (select id from listings where user_id = new.id);
        insert into listing_search_entries (listing_id, title, description, tags, created_at, style, user_id)
          select id, title, description, tags, created_at, style, user_id from listings
          where user_id = new.id and status = 'active' and new.banned = 0
          order by created_at, id;
        return null;
      end
    $$`,
  ])
    await statement.execute(db);
}
