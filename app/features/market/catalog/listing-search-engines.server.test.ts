import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, migrateToLatest, openDatabase, type DB } from "~/infra/db.server";
import { engineOf } from "~/infra/sql-dialect.server";
import {
  browseMarketplace,
  marketplacePageQuery,
  type MarketplaceQuery,
} from "~/features/market/catalog/marketplace-search.server";
import { matchingListings } from "~/features/market/catalog/listing-search-index.server";
import { SEARCH_MATCH_CAP, SHORT_SEARCH_WINDOW } from "~/lib/limits";

/**
 * Marketplace search answers the same on SQLite and PostgreSQL: the same
 * writes (listings, edits, withdrawals, bans, unbans, deletions) on both, then
 * the same searches, compared id by id in order. Runs where the test database
 * is PostgreSQL (TEST_DATABASE_URL); SQLite is a second database beside it.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

const WORDS = ["Neon", "Harbor", "Golden", "Café", "ÉTÉ", "Forest", "Retro", "c++", "50%", "a_b"];
const CREATORS = 20;
const LISTINGS = 3_000;

function creatorId(i: number) {
  return `creator-${String(i).padStart(3, "0")}`;
}
function listingId(i: number) {
  return `listing-${String(i).padStart(5, "0")}`;
}

function listingRow(i: number) {
  const stamp = new Date(Date.parse("2026-01-01T00:00:00Z") + (i % 2_500) * 60_000).toISOString();
  const word = WORDS[i % WORDS.length];
  return {
    id: listingId(i),
    user_id: creatorId(i % CREATORS),
    stylized_image_id: null,
    style: ["anime", "cartoon", "fantasy"][i % 3],
    title: i % 997 === 5 ? `Aurora ${i}` : `${word} ${WORDS[(i * 7) % WORDS.length]} ${i}`,
    description: i % 3 === 0 ? `A ${word.toLowerCase()} shot` : "Seeded",
    price_cents: 2500,
    tags: JSON.stringify(i % 5 === 0 ? ["night", "harbor"] : ["portrait"]),
    file_key: `listings/${i}.jpg`,
    file_mime_type: "image/jpeg",
    source_file_key: `styled/${i}.jpg`,
    width: 1024,
    height: 1024,
    preview_key: `previews/${i}.jpg`,
    status: i % 20 === 0 ? ("withdrawn" as const) : ("active" as const),
    created_at: stamp,
    updated_at: stamp,
  };
}

/** The same writes, in the same order, on one database. */
async function seed(db: DB) {
  const now = "2026-01-01T00:00:00.000Z";
  await db
    .insertInto("users")
    .values(
      Array.from({ length: CREATORS }, (_, i) => ({
        id: creatorId(i),
        email: `creator${i}@example.com`,
        first_name: `Creator${i}`,
        last_name: "Test",
        password_hash: "x",
        banned: i === 3 ? 1 : 0,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  for (let i = 0; i < LISTINGS; i += 250)
    await db
      .insertInto("listings")
      .values(Array.from({ length: Math.min(250, LISTINGS - i) }, (_, j) => listingRow(i + j)))
      .execute();
  // Edits (keep their place), withdrawals and re-activations (take a new one), bans and unbans, deletions.
  for (let i = 0; i < LISTINGS; i += 37)
    await db
      .updateTable("listings")
      .set({ title: `Edited neon ${i}`, description: "Retouched" })
      .where("id", "=", listingId(i))
      .execute();
  for (let i = 1; i < LISTINGS; i += 53)
    await db
      .updateTable("listings")
      .set({ status: "withdrawn" })
      .where("id", "=", listingId(i))
      .execute();
  for (let i = 1; i < LISTINGS; i += 106)
    await db
      .updateTable("listings")
      .set({ status: "active" })
      .where("id", "=", listingId(i))
      .execute();
  await db.updateTable("users").set({ banned: 1 }).where("id", "=", creatorId(7)).execute();
  await db.updateTable("users").set({ banned: 1 }).where("id", "=", creatorId(11)).execute();
  await db.updateTable("users").set({ banned: 0 }).where("id", "=", creatorId(7)).execute();
  await db.updateTable("users").set({ banned: 0 }).where("id", "=", creatorId(3)).execute();
  await db
    .deleteFrom("listings")
    .where("id", "in", [listingId(2), listingId(500), listingId(LISTINGS - 1)])
    .execute();
}

/** Every id a search answers, over all its pages (100 a page unless told). */
async function allIds(
  db: DB,
  q: string,
  style?: string,
  more: { creatorId?: string; limit?: number } = {},
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await browseMarketplace(db, {
      q,
      style,
      cursor,
      limit: more.limit ?? 100,
      creatorId: more.creatorId,
    });
    ids.push(...page.items.map((item) => item.id));
    if (!page.nextCursor) return ids;
    cursor = page.nextCursor;
  }
  throw new Error("more than 100 pages");
}

/** The index's own answer: the matches, newest indexed first. */
async function matches(db: DB, q: string): Promise<string[]> {
  const rows = await db.selectFrom(matchingListings(db, q)).select("matches.listing_id").execute();
  return rows.map((row) => row.listing_id);
}

const SEARCHES = [
  "neon",
  "NEON",
  "harbor",
  "golden forest",
  "café",
  "CAFÉ",
  "été",
  "aurora",
  "aurora 1",
  "c++",
  "50%",
  "0%",
  "a_b",
  "_",
  "%",
  "\\",
  "retouched",
  "night",
  '"night"',
  "qzv",
  "ne",
  "N",
  "é",
  "É",
  "1",
  "edited neon 3",
  "37\nretouched",
  "neon\n",
  // The bench's kinds (scripts/bench/search.ts): common words, a word and a number.
  "portrait",
  "seeded",
  "golden 1",
];

interface PlanNode {
  "Relation Name"?: string;
  "Actual Loops": number;
  "Actual Rows": number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe.skipIf(!onPostgres)("marketplace search on SQLite and PostgreSQL", () => {
  let sqlite: DB;
  beforeAll(async () => {
    sqlite = openDatabase(path.join(process.env.DATA_DIR!, "compare.sqlite"));
    await migrateToLatest(sqlite);
    expect(engineOf(sqlite)).toBe("sqlite");
    expect(engineOf(getDb())).toBe("postgres");
    await seed(sqlite);
    await seed(getDb());
  }, 60_000);
  afterAll(async () => {
    await sqlite?.destroy();
  });

  it("index the same listings", async () => {
    const ids = async (db: DB) =>
      (
        await sql<{
          listing_id: string;
        }>`select listing_id from listing_search_entries order by id`.execute(db)
      ).rows.map((row) => row.listing_id);
    const onSqlite = await ids(sqlite);
    expect(onSqlite.length).toBeGreaterThan(SHORT_SEARCH_WINDOW);
    expect(await ids(getDb())).toEqual(onSqlite);
  });

  it.each(SEARCHES)("answer %j with the same ids in the same order", async (q) => {
    const onSqlite = await matches(sqlite, q);
    expect(onSqlite.length).toBeLessThanOrEqual(SEARCH_MATCH_CAP);
    expect(await matches(getDb(), q)).toEqual(onSqlite);
    const pages = await allIds(sqlite, q);
    expect(await allIds(getDb(), q)).toEqual(pages);
    expect(await allIds(getDb(), q, "anime")).toEqual(await allIds(sqlite, q, "anime"));
    // A creator's storefront search, and pages of the bench's size.
    const storefront = { creatorId: creatorId(1), limit: 24 };
    expect(await allIds(getDb(), q, undefined, storefront)).toEqual(
      await allIds(sqlite, q, undefined, storefront),
    );
    expect(await allIds(getDb(), q, "fantasy", { limit: 24 })).toEqual(
      await allIds(sqlite, q, "fantasy", { limit: 24 }),
    );
  });

  it("some searches hit the cap, some find a few, some nothing", async () => {
    expect((await matches(getDb(), "portrait")).length).toBe(SEARCH_MATCH_CAP);
    expect((await matches(getDb(), "aurora")).length).toBeGreaterThan(0);
    expect((await matches(getDb(), "aurora")).length).toBeLessThan(10);
    expect(await matches(getDb(), "qzv")).toEqual([]);
    expect((await matches(getDb(), "café")).length).toBeGreaterThan(0);
    expect(await matches(getDb(), "été")).toEqual(await matches(getDb(), "ÉTÉ"));
  });

  it("PostgreSQL looks up only a page's own listings, not every capped match", async () => {
    const db = getDb();
    await sql`analyze`.execute(db);
    const pages: MarketplaceQuery[] = [
      { q: "portrait", limit: 24 },
      { q: "seeded", limit: 30, style: "anime" },
      { q: "golden", limit: 24, style: "anime" },
      { q: "ne", limit: 24 },
    ];
    for (const query of pages) {
      expect((await matches(db, query.q!)).length, query.q).toBeGreaterThan(query.limit * 4);
      const compiled = marketplacePageQuery(db, query).compile();
      const plan = await db.executeQuery<{ "QUERY PLAN": [{ Plan: PlanNode }] }>({
        ...compiled,
        sql: `explain (analyze, format json) ${compiled.sql}`,
      });
      // Rows read from listings (each lookup by id is one loop): at most the page and one more.
      const listingsRead = nodesOf(plan.rows[0]["QUERY PLAN"][0].Plan)
        .filter((node) => node["Relation Name"] === "listings")
        .reduce((sum, node) => sum + node["Actual Loops"] * Math.max(1, node["Actual Rows"]), 0);
      expect(listingsRead, JSON.stringify(query)).toBeLessThanOrEqual(query.limit + 1);
    }
  });

  it("PostgreSQL finds a search of three or more characters through the trigram index", async () => {
    const db = getDb();
    await sql`analyze listing_search_entries`.execute(db);
    for (const q of ["aurora", "qzv"]) {
      const compiled = db
        .selectFrom(matchingListings(db, q))
        .select("matches.listing_id")
        .compile();
      const plan = await db.executeQuery<{ "QUERY PLAN": string }>({
        ...compiled,
        sql: `explain ${compiled.sql}`,
      });
      const text = plan.rows.map((row) => row["QUERY PLAN"]).join("\n");
      expect(text).toMatch(/Bitmap Index Scan on listing_search_entries_text/);
      expect(text).not.toMatch(/Seq Scan/);
    }
  });
});
