import crypto from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { engineOf } from "~/infra/sql-dialect.server";
import { getFileStore } from "~/infra/file-store.server";
import { browseMarketplace } from "~/features/market/catalog/marketplace-search.server";
import { listStylizedImage, withdrawListing } from "~/features/market/catalog/listings.server";
import { listingInputSchema } from "~/features/market/catalog/listing-schema";
import { SEARCH_MATCH_CAP, SHORT_SEARCH_WINDOW } from "~/lib/limits";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { contentCredentialsFor } from "~/engines/provenance/content-credentials.server";
import { getConfig } from "~/infra/config.server";
import { listingRow } from "#tests/setup/table-rows";
import { updateWhere } from "#tests/setup/update-where";

/** Titles of one search's first page (100 at most). */
async function titlesFor(q: string, style?: string) {
  const page = await browseMarketplace(getDb(), { q, style, limit: 100 });
  return page.items.map((item) => item.title);
}

/** Every id a search answers, over all its pages. */
async function allIdsFor(q: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await browseMarketplace(getDb(), { q, cursor, limit: 100 });
    ids.push(...page.items.map((item) => item.id));
    if (!page.nextCursor) return ids;
    cursor = page.nextCursor;
  }
  throw new Error("more than 100 pages");
}

/**
 * The index holds exactly the listings the marketplace shows (active, creator
 * not banned), each once and with its current text, and FTS5 finds its own
 * index consistent with the rows it stores.
 */
async function expectIndexInStep() {
  const db = getDb();
  const shown = await db
    .selectFrom("listings as l")
    .innerJoin("users as u", "u.id", "l.user_id")
    .select(["l.id", "l.title", "l.description", "l.tags"])
    .where("l.status", "=", "active")
    .where("u.banned", "=", 0)
    .orderBy("l.id")
    .execute();
  if (engineOf(db) === "postgres") {
    // The entries hold the text themselves.
    const indexed = await sql<{ id: string; title: string; description: string; tags: string }>`
      select listing_id as id, title, description, tags
      from listing_search_entries order by listing_id collate "C"`.execute(db);
    expect(indexed.rows).toEqual(shown);
    return;
  }
  const indexed = await sql<{ id: string; title: string; description: string; tags: string }>`
    select e.listing_id as id, s.title, s.description, s.tags
    from listing_search_entries e join listing_search s on s.rowid = e.id
    order by e.listing_id`.execute(db);
  expect(indexed.rows).toEqual(shown);
  const [{ n }] = (await sql<{ n: number }>`select count(*) as n from listing_search`.execute(db))
    .rows;
  expect(n).toBe(shown.length);
  await sql`insert into listing_search (listing_search, rank) values ('integrity-check', 1)`.execute(
    db,
  );
}

/** Listing rows written straight to the table (no files), `count` of them a minute apart from `start`. */
async function insertListings(
  userId: string,
  count: number,
  title: (i: number) => string,
  start = Date.parse("2026-01-01T00:00:00Z"),
) {
  const db = getDb();
  const rows = Array.from({ length: count }, (_, i) => {
    const id = crypto.randomBytes(12).toString("base64url");
    const stamp = new Date(start + i * 60_000).toISOString();
    return listingRow({ id, user_id: userId, stylized_image_id: null }, stamp, {
      title: title(i),
      description: "Seeded",
      price_cents: 2500,
      tags: "[]",
      width: 1024,
      height: 1024,
    });
  });
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto("listings")
      .values(rows.slice(i, i + 200))
      .execute();
  return rows as { id: string }[];
}

describe("the marketplace search index", () => {
  it("stays in step through listing, editing, withdrawing, banning, unbanning and deleting", async () => {
    const db = getDb();
    const ada = await createTestUser({ firstName: "Ada" });
    const bob = await createTestUser({ firstName: "Bob" });
    const { listing: adas, stylized } = await createListing(ada.user.id, {
      title: "Harbor lights",
      tags: ["night"],
    });
    const { listing: bobs } = await createListing(bob.user.id, {
      title: "Harbor mist",
      description: "Grey morning",
    });
    await expectIndexInStep();
    expect(await titlesFor("harbor")).toEqual(["Harbor mist", "Harbor lights"]);

    // An edit of the title, description and tags (the listing is updated in place).
    const edit = listingInputSchema.parse({
      stylizedImageId: stylized.id,
      title: "Quiet bay",
      description: "Boats at dawn",
      price: 25,
      tags: "sea, calm",
    });
    await listStylizedImage(db, getFileStore(), {
      credentials: contentCredentialsFor(getConfig()),
      userId: ada.user.id,
      input: edit,
      now: new Date(),
    });
    await expectIndexInStep();
    expect(await titlesFor("harbor")).toEqual(["Harbor mist"]);
    expect(await titlesFor("uiet ba")).toEqual(["Quiet bay"]);
    expect(await titlesFor("at daw")).toEqual(["Quiet bay"]);
    expect(await titlesFor("calm")).toEqual(["Quiet bay"]);
    expect(await titlesFor("night")).toEqual([]);

    // Withdrawn: out of the index and of the results.
    await withdrawListing(db, { userId: ada.user.id, listingId: adas.id, now: new Date() });
    await expectIndexInStep();
    expect(await titlesFor("quiet")).toEqual([]);

    // Listed again (a new listing of the same image): back in.
    const { listing: again } = await listStylizedImage(db, getFileStore(), {
      credentials: contentCredentialsFor(getConfig()),
      userId: ada.user.id,
      input: edit,
      now: new Date(),
    });
    await expectIndexInStep();
    expect(await titlesFor("quiet")).toEqual(["Quiet bay"]);

    // Banned, by whatever writes the flag: the creator's listings leave; unbanned: they come back.
    await updateWhere("users", { banned: 1 }, "id", bob.user.id);
    await expectIndexInStep();
    expect(await titlesFor("harbor")).toEqual([]);
    expect(await titlesFor("grey morning")).toEqual([]);
    await updateWhere("users", { banned: 0 }, "id", bob.user.id);
    await expectIndexInStep();
    expect(await titlesFor("harbor")).toEqual(["Harbor mist"]);

    // A write to other columns (views) leaves the index alone; deleting the row takes it out.
    await updateWhere("listings", { view_count: 5 }, "id", bobs.id);
    await expectIndexInStep();
    await db.deleteFrom("listings").where("id", "=", bobs.id).execute();
    await expectIndexInStep();
    expect(await titlesFor("harbor")).toEqual([]);

    // Deleting the creator takes their listings out with them (the cascade).
    await db.deleteFrom("listings").where("id", "=", adas.id).execute();
    await db.deleteFrom("stylized_images").where("user_id", "=", ada.user.id).execute();
    await db.deleteFrom("images").where("user_id", "=", ada.user.id).execute();
    await db.deleteFrom("users").where("id", "=", ada.user.id).execute();
    await expectIndexInStep();
    expect(await titlesFor("quiet")).toEqual([]);
    expect(again.id).not.toBe(adas.id);
  });

  it("matches text anywhere in the title, description or tags, case-insensitively, with every character literal", async () => {
    const { user } = await createTestUser();
    await createListing(user.id, {
      title: "Café Noir",
      description: 'A "quoted" (night) shot: NEAR AND OR *',
      tags: ["c++", "x"],
    });
    await createListing(user.id, { title: "Plain", description: "Nothing special", tags: ["ab"] });

    expect(await titlesFor("café")).toEqual(["Café Noir"]);
    expect(await titlesFor("CAFÉ N")).toEqual(["Café Noir"]);
    expect(await titlesFor('"quoted"')).toEqual(["Café Noir"]);
    expect(await titlesFor("(night)")).toEqual(["Café Noir"]);
    expect(await titlesFor("NEAR AND OR *")).toEqual(["Café Noir"]);
    expect(await titlesFor("c++")).toEqual(["Café Noir"]);
    // Inside the stored tags, as before (the tags column is searched as written).
    expect(await titlesFor('"ab"')).toEqual(["Plain"]);
    expect(await titlesFor("noir special")).toEqual([]);
    // Filters still apply to the matches.
    expect(await titlesFor("plain", "anime")).toEqual(["Plain"]);
    expect(await titlesFor("plain", "cartoon")).toEqual([]);
    // One or two characters: a substring match too (read from the newest listings).
    expect(await titlesFor("ab")).toEqual(["Plain"]);
    expect(await titlesFor("+")).toEqual(["Café Noir"]);
    expect(await titlesFor("%")).toEqual([]);
    // FTS5 cannot take a NUL in its query: that search is answered by the bounded scan, not an error.
    expect(await titlesFor("af\u0000e")).toEqual([]);
  });

  it(`walks at most ${SEARCH_MATCH_CAP} matches, the newest, over all the pages of a search`, async () => {
    const { user } = await createTestUser();
    const rows = await insertListings(user.id, SEARCH_MATCH_CAP + 30, (i) => `Capstone ${i}`);
    await expectIndexInStep();
    const found = await allIdsFor("capstone");
    expect(found).toHaveLength(SEARCH_MATCH_CAP);
    // Newest first, and the newest of them: the 30 oldest are the ones left out.
    expect(found).toEqual(
      rows
        .slice(30)
        .reverse()
        .map((row) => row.id),
    );
    // A narrower search reaches one of those left out.
    expect(found).not.toContain(rows[29].id);
    expect(await titlesFor("capstone 29")).toContain("Capstone 29");
  });

  it(`a one- or two-character search looks through the ${SHORT_SEARCH_WINDOW} newest listings only`, async () => {
    const { user } = await createTestUser();
    const [oldest] = await insertListings(
      user.id,
      1,
      () => "Zqx old",
      Date.parse("2025-01-01T00:00:00Z"),
    );
    await insertListings(user.id, SHORT_SEARCH_WINDOW, (i) => `Filler ${i}`);
    const [newest] = await insertListings(
      user.id,
      1,
      () => "Zqx new",
      Date.parse("2027-01-01T00:00:00Z"),
    );
    expect(await allIdsFor("zq")).toEqual([newest.id]);
    // Three characters go through the index, which holds every listing shown.
    expect(await allIdsFor("zqx")).toEqual([newest.id, oldest.id]);
  });
});
