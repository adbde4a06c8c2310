import { sql, type AliasedRawBuilder, type Kysely } from "kysely";
import { engineOf } from "~/infra/sql-dialect.server";
import { SEARCH_INDEXED_MIN_CHARS, SEARCH_MATCH_CAP, SHORT_SEARCH_WINDOW } from "~/lib/limits";

/**
 * The database-specific half of marketplace search, kept here alone: which
 * listings' title, description or tags contain the search text
 * (case-insensitive), at most SEARCH_MATCH_CAP of them, the newest listed
 * first. Both engines answer the same ids in the same order.
 *
 * SQLite: the FTS5 table listing_search (trigram tokenizer) holds the
 * listings the marketplace shows, kept in step by triggers (migration 0013);
 * listing_search_entries maps its rows to listing ids. A quoted FTS5 phrase
 * of three or more characters is a substring match found through the index.
 *
 * PostgreSQL: listing_search_entries holds the same listings' text itself,
 * kept in step by triggers (the baseline migration), and `folded`, the three
 * texts joined by newlines and lowercased, under a pg_trgm GIN index: a
 * search of three or more characters is `folded like lower('%text%')`, found
 * through it (a text with a newline is then tested
 * against each column on its own: a match never spans two columns, as in FTS5).
 *
 * Trigrams cannot match one or two characters: such a search (or one with a
 * NUL character) reads the SHORT_SEARCH_WINDOW newest entries with LIKE
 * instead, a bounded scan, case-insensitive for ASCII letters only on both
 * engines (SQLite's LIKE; ILIKE under the "C" collation).
 */
export function matchingListings(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  text: string,
): AliasedRawBuilder<{ listing_id: string }, "matches"> {
  const postgres = engineOf(db) === "postgres";
  // FTS5's query parser ends a string at a NUL character (and PostgreSQL text cannot hold one), so such a text takes the bounded scan too.
  const indexed = [...text].length >= SEARCH_INDEXED_MIN_CHARS && !text.includes("\u0000");
  const pattern = `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  if (postgres) {
    // PostgreSQL text cannot hold a NUL, so no stored text contains one.
    if (text.includes("\u0000"))
      return sql<{ listing_id: string }>`(
        select listing_id from listing_search_entries where false
      )`.as("matches");
    if (indexed) {
      // A match that spans two columns contains the newline between them: only
      // a text with a newline needs each column tested on its own. (Without it
      // the planner sees one condition, estimates its matches well, and walks
      // the newest entries instead of collecting every match of a common word.)
      const eachColumn = text.includes("\n")
        ? sql`and (
            title ilike ${pattern} escape '\\'
            or description ilike ${pattern} escape '\\'
            or tags ilike ${pattern} escape '\\'
          )`
        : sql``;
      return sql<{ listing_id: string }>`(
        select listing_id
        from listing_search_entries
        where folded like lower(${pattern}) escape '\\'
          ${eachColumn}
        order by id desc
        limit ${SEARCH_MATCH_CAP}
      )`.as("matches");
    }
    return sql<{ listing_id: string }>`(
      select s.listing_id
      from (
        select id, listing_id, title, description, tags
        from listing_search_entries order by id desc limit ${SHORT_SEARCH_WINDOW}
      ) s
      where s.title collate "C" ilike ${pattern} escape '\\'
        or s.description collate "C" ilike ${pattern} escape '\\'
        or s.tags collate "C" ilike ${pattern} escape '\\'
      order by s.id desc
      limit ${SEARCH_MATCH_CAP}
    )`.as("matches");
  }
  if (indexed) {
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
