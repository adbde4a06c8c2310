import { sql } from "kysely";
import type { AnyDb } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// PostgreSQL only (SQLite takes a hit in its own process, in microseconds).
// One take of a shared rate limit (rate_limit_hits) as one statement, so a
// call that is throttled pays one round trip to the server instead of seven
// (begin, the setting, the lock, insert, delete, count, commit). Under the
// same advisory lock as before ('rate-limit:' || bucket), so servers of the
// old and the new code count one after another during a rolling deploy. In a
// function each statement reads what others committed before it, so the count
// after the lock sees every hit taken before. Answers null when the hit is
// counted, else the time of the hit whose end of window lets the next one in.
// With wait_for_disk false (a take in a transaction of its own) its commit
// does not wait for the write-ahead log to reach the disk.

export async function up(db: AnyDb): Promise<void> {
  await sql`create or replace function take_rate_limit_hit(
      take_bucket text, take_id text, take_at text, window_start text,
      hit_limit integer, wait_for_disk boolean
    ) returns text language plpgsql volatile as $$
    declare
      opener text;
    begin
      if not wait_for_disk then
        perform set_config('synchronous_commit', 'off', true);
      end if;
      perform pg_advisory_xact_lock(hashtextextended('rate-limit:' || take_bucket, 0));
      delete from rate_limit_hits where bucket = take_bucket and at <= window_start;
      select at into opener from rate_limit_hits where bucket = take_bucket
        order by at desc, id desc offset hit_limit - 1 limit 1;
      if opener is not null then
        return opener;
      end if;
      insert into rate_limit_hits (id, bucket, at) values (take_id, take_bucket, take_at);
      return null;
    end $$`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`drop function if exists take_rate_limit_hit(text, text, text, text, integer, boolean)`.execute(
    db,
  );
}
