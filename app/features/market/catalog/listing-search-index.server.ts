import { sql, type AliasedRawBuilder, type Kysely, type RawBuilder } from "kysely";
import { engineOf } from "~/infra/sql-dialect.server";
import { SEARCH_INDEXED_MIN_CHARS, SEARCH_MATCH_CAP, SHORT_SEARCH_WINDOW } from "~/lib/limits";

/** What a PostgreSQL search entry holds of its listing to choose a page by (migration 0042): its order and filters. */
const PAGE_KEYS = sql.raw("listing_id, created_at, style, user_id");

/** What a marketplace page asks of a search's matches besides the text. */
export interface SearchPageFilters {
  style?: string;
  creatorId?: string;
  listingId?: string;
  /** Only matches before this (created_at, id) in the newest-first order (a page's cursor). */
  before?: [createdAt: string, id: string];
  /** How many rows the page reads at most. */
  size: number;
}

/**
 * The matches a marketplace page can show: on PostgreSQL, each entry carries
 * its listing's created_at, style and creator, so the page is chosen among
 * the (capped) matches the walk has already read, and the caller looks up
 * only these `size` listings instead of every match, up to SEARCH_MATCH_CAP
 * of them, to learn their dates (decision 072). On SQLite, the matches
 * themselves (the caller filters, orders and limits them, as it must anyway).
 * Either way the same rows as the caller's filters over matchingListings.
 */
export function searchPageMatches(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  text: string,
  filters: SearchPageFilters,
): AliasedRawBuilder<{ listing_id: string }, "matches"> {
  if (engineOf(db) !== "postgres") return matchingListings(db, text);
  const conditions = [sql`true`];
  if (filters.style) conditions.push(sql`m.style = ${filters.style}`);
  if (filters.creatorId) conditions.push(sql`m.user_id = ${filters.creatorId}`);
  if (filters.listingId) conditions.push(sql`m.listing_id = ${filters.listingId}`);
  if (filters.before)
    conditions.push(
      sql`(m.created_at, m.listing_id) < (${filters.before[0]}, ${filters.before[1]})`,
    );
  return sql<{ listing_id: string }>`(
    select m.listing_id
    from ${matchingQuery(db, text)} as m
    where ${sql.join(conditions, sql` and `)}
    order by m.created_at desc, m.listing_id desc
    limit ${filters.size}
  )`.as("matches");
}

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
 *
 * On PostgreSQL each entry also holds its listing's created_at, style and
 * creator (migration 0042), and the rows here carry them (PAGE_KEYS), so that
 * searchPageMatches can choose a page among the matches without looking up
 * every one of them.
 */
export function matchingListings(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  text: string,
): AliasedRawBuilder<{ listing_id: string }, "matches"> {
  return matchingQuery(db, text).as("matches");
}

/** matchingListings' query; on PostgreSQL its rows also hold the entries' PAGE_KEYS. */
function matchingQuery(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  text: string,
): RawBuilder<{ listing_id: string }> {
  const postgres = engineOf(db) === "postgres";
  // FTS5's query parser ends a string at a NUL character (and PostgreSQL text cannot hold one), so such a text takes the bounded scan too.
  const indexed = [...text].length >= SEARCH_INDEXED_MIN_CHARS && !text.includes("\u0000");
  const pattern = `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  if (postgres) {
    // PostgreSQL text cannot hold a NUL, so no stored text contains one.
    if (text.includes("\u0000"))
      return sql<{ listing_id: string }>`(
        select ${PAGE_KEYS} from listing_search_entries where false
      )`;
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
        select ${PAGE_KEYS}
        from listing_search_entries
        where folded like lower(${pattern}) escape '\\'
          ${eachColumn}
        order by id desc
        limit ${SEARCH_MATCH_CAP}
      )`;
    }
    return sql<{ listing_id: string }>`(
      select ${PAGE_KEYS}
      from (
        select id, ${PAGE_KEYS}, title, description, tags
        from listing_search_entries order by id desc limit ${SHORT_SEARCH_WINDOW}
      ) s
      where s.title collate "C" ilike ${pattern} escape '\\'
        or s.description collate "C" ilike ${pattern} escape '\\'
        or s.tags collate "C" ilike ${pattern} escape '\\'
      order by s.id desc
      limit ${SEARCH_MATCH_CAP}
    )`;
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
    )`;
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
  )`;
}
