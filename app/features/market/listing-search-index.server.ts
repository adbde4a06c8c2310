import { sql, type AliasedRawBuilder } from "kysely";
import type { DB } from "~/infra/db.server";
import { engineOf } from "~/infra/sql-dialect.server";
import { SEARCH_INDEXED_MIN_CHARS, SEARCH_MATCH_CAP, SHORT_SEARCH_WINDOW } from "~/lib/limits";

/**
 * The database-specific half of marketplace search, kept here alone so
 * another database can have its own: which listings' title, description or
 * tags contain the search text (case-insensitive), at most SEARCH_MATCH_CAP
 * of them, the newest listed first.
 *
 * SQLite: the FTS5 table listing_search (trigram tokenizer) holds the
 * listings the marketplace shows, kept in step by triggers (migration 0013);
 * listing_search_entries maps its rows to listing ids. A quoted FTS5 phrase
 * of three or more characters is a substring match found through the index.
 * Trigrams cannot match one or two characters: such a search (or one with a
 * NUL character) reads the SHORT_SEARCH_WINDOW newest entries with LIKE
 * instead, a bounded scan.
 *
 * PostgreSQL: listing_search_entries holds the shown listings' text, numbered
 * in the order they entered the index and kept in step by triggers (the
 * PostgreSQL baseline migration), with pg_trgm GIN indexes; ILIKE '%text%'
 * is found through them. Short searches take the same bounded window scan.
 */
export function matchingListings(
  db: DB,
  text: string,
): AliasedRawBuilder<{ listing_id: string }, "matches"> {
  return engineOf(db) === "postgres" ? postgresMatches(text) : sqliteMatches(text);
}

/** ILIKE's pattern for "contains `text`" (its wildcards and escape character taken literally). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function postgresMatches(text: string): AliasedRawBuilder<{ listing_id: string }, "matches"> {
  // PostgreSQL text cannot hold a NUL character, so no listing contains one.
  if (text.includes("\u0000")) {
    return sql<{
      listing_id: string;
    }>`(select listing_id from listing_search_entries where false)`.as("matches");
  }
  const pattern = containsPattern(text);
  const matches = (from: ReturnType<typeof sql>) => sql<{ listing_id: string }>`(
    select e.listing_id
    from ${from} e
    where e.title ilike ${pattern} escape '\\'
      or e.description ilike ${pattern} escape '\\'
      or e.tags ilike ${pattern} escape '\\'
    order by e.id desc
    limit ${SEARCH_MATCH_CAP}
  )`;
  if ([...text].length >= SEARCH_INDEXED_MIN_CHARS) {
    return matches(sql`listing_search_entries`).as("matches");
  }
  return matches(
    sql`(select * from listing_search_entries order by id desc limit ${SHORT_SEARCH_WINDOW})`,
  ).as("matches");
}

function sqliteMatches(text: string): AliasedRawBuilder<{ listing_id: string }, "matches"> {
  // FTS5's query parser ends a string at a NUL character, so such a text takes the bounded scan too.
  if ([...text].length >= SEARCH_INDEXED_MIN_CHARS && !text.includes("\u0000")) {
    const phrase = `"${text.replace(/"/g, '""')}"`;
    return sql<{ listing_id: string }>`(
      select e.listing_id
      from listing_search s
      join listing_search_entries e on e.id = s.rowid
      where listing_search match ${phrase}
      order by s.rowid desc
      limit ${SEARCH_MATCH_CAP}
    )`.as("matches");
  }
  const pattern = containsPattern(text);
  return sql<{ listing_id: string }>`(
    select e.listing_id
    from (
      select rowid, title, description, tags from listing_search order by rowid desc limit ${SHORT_SEARCH_WINDOW}
    ) s
    join listing_search_entries e on e.id = s.rowid
    where s.title like ${pattern} escape '\\'
      or s.description like ${pattern} escape '\\'
      or s.tags like ${pattern} escape '\\'
    order by s.rowid desc
    limit ${SEARCH_MATCH_CAP}
  )`.as("matches");
}
