import { describe, expect, it } from "vitest";
import { flushedViewCount } from "#tests/setup/marketplace-views";
import { loader as marketplacePage } from "~/routes/_market+/marketplace";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { updateWhere } from "#tests/setup/update-where";

const { loader: marketplaceApi } = apiRoute("/api/marketplace");

async function get(path: string) {
  const response = await callRoute(marketplaceApi, makeRequest(path));
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  return { status: response.status, body: await response.json() };
}

describe("GET /api/marketplace", () => {
  it("answers active listings of creators who are not banned, newest first, with the watermarked preview only", async () => {
    const creator = await createTestUser({ firstName: "Ada" });
    const banned = await createTestUser({ firstName: "Mallory" });
    const first = await createListing(creator.user.id, {
      title: "Older",
      style: "anime",
      price: "12.50",
      tags: ["sunset"],
    });
    const second = await createListing(creator.user.id, {
      title: "Newer",
      style: "cartoon",
      price: 30,
    });
    const withdrawn = await createListing(creator.user.id, { title: "Gone" });
    await createListing(banned.user.id, { title: "Banned creator's" });
    await updateWhere("listings", { status: "withdrawn" }, "id", withdrawn.listing.id);
    await updateWhere("users", { banned: 1 }, "id", banned.user.id);

    const { status, body } = await get("/api/marketplace");
    expect(status).toBe(200);
    expect(body.nextCursor).toBeNull();
    expect(body.items.map((item: { title: string }) => item.title)).toEqual(["Newer", "Older"]);
    expect(body.items[1]).toEqual({
      id: first.listing.id,
      title: "Older",
      description: "A test portrait",
      style: "anime",
      price: "12.50",
      priceCents: 1250,
      // Standard only: the creator priced no other tier (decision 101).
      licenses: [{ type: "standard", price: "12.50" }],
      previewUrl: `/media/${first.listing.preview_key}`,
      previewWidth: 640,
      // The pixel size of the file a buyer gets.
      width: first.listing.width,
      height: first.listing.height,
      creator: { id: creator.user.id, firstName: "Ada" },
      tags: ["sunset"],
      licensingEnabled: true,
      createdAt: first.listing.created_at,
      // How it was made (the built-in engine's composite).
      aiLabel: "AI-edited",
      // Its own page, absolute.
      url: `http://localhost:3000/marketplace/${first.listing.id}`,
    });
    expect([body.items[1].width, body.items[1].height]).toEqual([
      first.listing.width,
      first.listing.height,
    ]);
    expect(body.items[1].width).toBeGreaterThan(0);
    expect(body.items[1].height).toBeGreaterThan(0);
    expect(body.items[0].price).toBe("30");
    expect(JSON.stringify(body)).not.toContain("listings/");
    expect(second.listing.id).toBe(body.items[0].id);
  });

  it("filters by style and search, and pages with a cursor that never repeats or skips", async () => {
    const { user } = await createTestUser();
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const { listing } = await createListing(user.id, {
        title: i % 2 ? `Dusk ${i}` : `Portrait ${i}`,
        description: "batch7",
        style: i % 2 ? "fantasy" : "professional",
        tags: i === 4 ? ["100%_real"] : ["x"],
      });
      made.push(listing.id);
    }
    const fantasy = await get("/api/marketplace?style=fantasy");
    expect(fantasy.body.items.every((item: { style: string }) => item.style === "fantasy")).toBe(
      true,
    );
    expect(fantasy.body.items).toHaveLength(3);
    const search = await get("/api/marketplace?q=dUSk");
    expect(search.body.items).toHaveLength(3);
    // LIKE wildcards in the search are literal.
    expect((await get("/api/marketplace?q=100%25_")).body.items).toHaveLength(1);
    expect((await get("/api/marketplace?q=%25%25")).body.items).toHaveLength(0);
    expect((await get("/api/marketplace?q=_o")).body.items).toHaveLength(0);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { body: { items: { id: string }[]; nextCursor: string | null } } = await get(
        `/api/marketplace?q=batch7&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      seen.push(...page.body.items.map((item) => item.id));
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });

  it("answers 400 JSON for an unknown style, a bad cursor or a limit out of range", async () => {
    for (const path of [
      "/api/marketplace?style=watercolor",
      "/api/marketplace?cursor=not-a-cursor",
      "/api/marketplace?limit=101",
      "/api/marketplace?limit=0",
      "/api/marketplace?limit=abc",
    ]) {
      const { status, body } = await get(path);
      expect(status, path).toBe(400);
      expect(typeof body.message).toBe("string");
    }
    expect((await get("/api/marketplace?limit=100")).status).toBe(200);
  });

  it("refuses other methods with a JSON 405", async () => {
    const response = await callRoute(
      marketplaceApi,
      makeRequest("/api/marketplace", { method: "DELETE" }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
  });
});

describe("the /marketplace page", () => {
  it("shows one listing by ?listing= and counts fresh views, not the creator's own or revalidations", async () => {
    const creator = await createTestUser();
    const visitor = await createTestUser();
    const { listing } = await createListing(creator.user.id, { title: "Counted" });
    const views = () => flushedViewCount(listing.id);

    const page = await callRoute(
      marketplacePage,
      makeRequest(`/marketplace?listing=${listing.id}`),
    );
    const data = await page.json();
    expect(data.page.items.map((item: { id: string }) => item.id)).toEqual([listing.id]);
    expect(await views()).toBe(1);

    await callRoute(marketplacePage, makeRequest("/marketplace", { cookie: creator.cookie }));
    expect(await views()).toBe(1);
    await callRoute(
      marketplacePage,
      makeRequest("/marketplace?_data=routes%2F_market%2B%2Fmarketplace", {
        cookie: visitor.cookie,
        headers: { Referer: "http://localhost:3000/marketplace" },
      }),
    );
    expect(await views()).toBe(1);
    await callRoute(
      marketplacePage,
      makeRequest("/marketplace", {
        cookie: visitor.cookie,
        headers: { Referer: "http://localhost:3000/landing" },
      }),
    );
    expect(await views()).toBe(2);
  });

  it("shows an unknown style as a 400 error page", async () => {
    const response = await callRoute(marketplacePage, makeRequest("/marketplace?style=nope"));
    expect(response.status).toBe(400);
  });
});
