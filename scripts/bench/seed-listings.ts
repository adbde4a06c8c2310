import crypto from "node:crypto";
import SQLite from "better-sqlite3";
import pg from "pg";

/**
 * Bench data straight into a migrated database (an SQLite file or PostgreSQL): creators (2% banned)
 * and listings (5% withdrawn; one title in 1,000 holds the rare word
 * "Aurora"). Listing rows name files that do not exist: the marketplace
 * pages only link to them.
 */
const STYLES = ["professional", "cartoon", "anime", "fantasy"];
const WORDS = [
  "Sunset",
  "Studio",
  "Neon",
  "Portrait",
  "Dream",
  "City",
  "Golden",
  "Forest",
  "Ocean",
  "Retro",
  "Bold",
  "Calm",
];

export function seedCreators(file: string, count: number): string[] {
  const sqlite = new SQLite(file);
  const now = new Date().toISOString();
  const insert =
    sqlite.prepare(`insert into users (id, email, first_name, last_name, password_hash, profile_image_url, banned, created_at, updated_at)
    values (?, ?, ?, 'Bench', 'x', null, ?, ?, ?)`);
  const ids = Array.from({ length: count }, (_, i) => `creator-${i}`);
  sqlite.transaction(() => {
    ids.forEach((id, i) =>
      insert.run(id, `creator${i}@bench.example`, `Creator${i}`, i % 50 === 0 ? 1 : 0, now, now),
    );
  })();
  sqlite.close();
  return ids;
}

/** The bench's listing number `i`: the same rows on every engine (ids aside, which are random). */
function listingValues(i: number, start: number) {
  const id = crypto.randomBytes(16).toString("base64url");
  const style = STYLES[i % STYLES.length];
  // "Aurora" is rare (1 in 1000): the search has to look far for it.
  const title =
    i % 1000 === 7
      ? `Aurora ${i}`
      : `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i}`;
  const stamp = new Date(start + i * 60_000).toISOString();
  return [
    id,
    style,
    title,
    `An AI-stylized ${style} selfie.`,
    2500 + (i % 50) * 100,
    JSON.stringify([style, "portrait"]),
    `listings/${id}.jpg`,
    `styled/${id}.jpg`,
    `previews/${id}.jpg`,
    i % 20 === 0 ? "withdrawn" : "active",
    stamp,
    stamp,
  ] as const;
}

const LISTINGS_START = Date.parse("2026-01-01T00:00:00Z");

export function seedListings(file: string, from: number, to: number, creators: string[]) {
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  const insert =
    sqlite.prepare(`insert into listings (id, user_id, stylized_image_id, style, title, description, price_cents, tags,
    licensing_enabled, nft_enabled, file_key, file_mime_type, source_file_key, width, height, preview_key, view_count, status, created_at, updated_at)
    values (?, ?, null, ?, ?, ?, ?, ?, 1, 0, ?, 'image/jpeg', ?, 1024, 1024, ?, 0, ?, ?, ?)`);
  sqlite.transaction(() => {
    for (let i = from; i < to; i++) {
      const [id, ...rest] = listingValues(i, LISTINGS_START);
      insert.run(id, creators[i % creators.length], ...rest);
    }
  })();
  sqlite.pragma("optimize");
  sqlite.close();
}

/** seedCreators on a migrated PostgreSQL database. */
export async function seedCreatorsPostgres(url: string, count: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const now = new Date().toISOString();
    const ids = Array.from({ length: count }, (_, i) => `creator-${i}`);
    await client.query(
      `insert into users (id, email, first_name, last_name, password_hash, profile_image_url, banned, created_at, updated_at)
      select id, 'creator' || n || '@bench.example', 'Creator' || n, 'Bench', 'x', null, case when n % 50 = 0 then 1 else 0 end, $2, $2
      from unnest($1::text[]) with ordinality as c(id, ord), lateral (select ord - 1 as n) k`,
      [ids, now],
    );
    return ids;
  } finally {
    await client.end();
  }
}

/** seedListings on a migrated PostgreSQL database (the triggers index them), then ANALYZE. */
export async function seedListingsPostgres(
  url: string,
  from: number,
  to: number,
  creators: string[],
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin");
    const BATCH = 1_000;
    for (let first = from; first < to; first += BATCH) {
      const columns: unknown[][] = Array.from({ length: 13 }, () => []);
      for (let i = first; i < Math.min(to, first + BATCH); i++) {
        const [id, ...rest] = listingValues(i, LISTINGS_START);
        [id, creators[i % creators.length], ...rest].forEach((value, c) => columns[c].push(value));
      }
      await client.query(
        `insert into listings (id, user_id, stylized_image_id, style, title, description, price_cents, tags,
        licensing_enabled, nft_enabled, file_key, file_mime_type, source_file_key, width, height, preview_key, view_count, status, created_at, updated_at)
        select id, user_id, null, style, title, description, price_cents, tags, 1, 0, file_key, 'image/jpeg', source_file_key, 1024, 1024, preview_key, 0, status, created_at, updated_at
        from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[])
          as r(id, user_id, style, title, description, price_cents, tags, file_key, source_file_key, preview_key, status, created_at, updated_at)
        order by created_at, id`,
        columns,
      );
    }
    await client.query("commit");
    await client.query("analyze");
  } finally {
    await client.end();
  }
}
