import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { MAX_SAVED_LISTINGS, SAVED_LISTINGS_FULL } from "~/lib/limits";
import { withdrawListing } from "~/features/market/catalog/listings.server";
import { action as savedAction, loader as savedPage } from "~/routes/_market+/saved";
import { action as cartAction } from "~/routes/_market+/cart";
import { loader as rootLoader } from "~/root";
import { readSaved, savedHeader } from "~/web/saved-listings.server";
import { reportingRender } from "~/web/render-report.server";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { flashOf } from "#tests/setup/flash";
import { updateWhere } from "#tests/setup/update-where";

/** A browser: its cookie jar, its posts to /saved and its /saved page. */
function browser(cookie = "") {
  const jar = { cookie };
  return {
    jar,
    async post(fields: Record<string, string>, options: { origin?: "same" | "cross" } = {}) {
      const response = await callRoute(
        savedAction,
        formRequest("/saved", fields, { cookie: jar.cookie, origin: options.origin }),
      );
      jar.cookie = cookiesFrom(response, jar.cookie);
      return response;
    },
    async page() {
      const response = await callRoute(savedPage, makeRequest("/saved", { cookie: jar.cookie }));
      expect(response.status).toBe(200);
      return (await response.json()).listings as {
        id: string;
        available: boolean;
        title?: string;
        priceCents?: number;
      }[];
    },
  };
}

/** A cookie of `count` saved ids (made-up listings: the cap counts ids, not rows). */
async function savedCookieOf(ids: string[]): Promise<string> {
  const header = await savedHeader(ids);
  return header.split(";")[0];
}

const madeUpIds = (count: number) =>
  Array.from({ length: count }, (_, i) => `gone${String(i).padStart(18, "0")}`);

describe("POST /saved and GET /saved", () => {
  it("saves without JavaScript, back at the item, and lists the saved listings newest first at their current price", async () => {
    const { user } = await createTestUser({ firstName: "Cora" });
    const one = await createListing(user.id, { title: "One", price: 10 });
    const two = await createListing(user.id, { title: "Two", price: 20 });
    const buyer = browser();

    const saved = await buyer.post({
      intent: "save",
      listingId: one.listing.id,
      redirectTo: "/marketplace?style=anime",
      anchor: `listing-${one.listing.id}`,
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(
      `/marketplace?style=anime#listing-${one.listing.id}`,
    );
    await buyer.post({ intent: "save", listingId: two.listing.id, redirectTo: "/marketplace" });
    // Saving it again changes nothing.
    await buyer.post({ intent: "save", listingId: one.listing.id });

    // The price now, not the price when saved.
    await updateWhere("listings", { price_cents: 1500 }, "id", one.listing.id);
    const listings = await buyer.page();
    expect(listings.map((listing) => [listing.title, listing.priceCents])).toEqual([
      ["Two", 2000],
      ["One", 1500],
    ]);
    expect(listings.every((listing) => listing.available)).toBe(true);

    // The header counts them (and the cart's listings for sale).
    const root = await (
      await callRoute(rootLoader, makeRequest("/", { cookie: buyer.jar.cookie }))
    ).json();
    expect(root.saved).toEqual([two.listing.id, one.listing.id]);
    expect(root.cart).toEqual([]);
  });

  it("removes, and an empty list clears its cookie", async () => {
    const { user } = await createTestUser();
    const { listing } = await createListing(user.id);
    const buyer = browser();
    await buyer.post({ intent: "save", listingId: listing.id });
    expect(buyer.jar.cookie).toContain("__saved=");
    const removed = await buyer.post({
      intent: "remove",
      listingId: listing.id,
      redirectTo: "/saved",
    });
    expect(removed.status).toBe(302);
    expect(removed.headers.get("Location")).toBe("/saved");
    expect(buyer.jar.cookie).not.toContain("__saved=");
    expect(await buyer.page()).toEqual([]);
  });

  it("answers a fetcher (enhanced=1) with JSON: saved or not, and how many", async () => {
    const { user } = await createTestUser();
    const { listing } = await createListing(user.id);
    const buyer = browser();
    const saved = await buyer.post({ intent: "save", listingId: listing.id, enhanced: "1" });
    expect(await saved.json()).toEqual({ ok: true, saved: true, count: 1 });
    const removed = await buyer.post({ intent: "remove", listingId: listing.id, enhanced: "1" });
    expect(await removed.json()).toEqual({ ok: true, saved: false, count: 0 });
  });

  it(`keeps at most ${MAX_SAVED_LISTINGS}: the next one is refused with a clear message and nothing changes`, async () => {
    const { user } = await createTestUser();
    const { listing } = await createListing(user.id, { title: "One too many" });
    const full = madeUpIds(MAX_SAVED_LISTINGS);
    const buyer = browser(await savedCookieOf(full));

    // Without JavaScript: back to the item with the message as a flash, no cookie set.
    const refused = await buyer.post({
      intent: "save",
      listingId: listing.id,
      redirectTo: "/marketplace",
      anchor: `listing-${listing.id}`,
    });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe(`/marketplace#listing-${listing.id}`);
    expect(await flashOf(refused)).toEqual({ kind: "error", ...SAVED_LISTINGS_FULL });
    expect(refused.headers.getSetCookie().some((line) => line.startsWith("__saved="))).toBe(false);
    expect(SAVED_LISTINGS_FULL.description).toBe(
      "You can save at most 100 listings. Remove one from your saved listings to save another.",
    );

    // With JavaScript: 409 and the same sentence.
    const json = await buyer.post({ intent: "save", listingId: listing.id, enhanced: "1" });
    expect(json.status).toBe(409);
    expect(await json.json()).toEqual({ ok: false, message: SAVED_LISTINGS_FULL.description });
    expect(json.headers.getSetCookie()).toEqual([]);

    const listings = await buyer.page();
    expect(listings.map((entry) => entry.id)).toEqual(full);
    expect(listings.some((entry) => entry.id === listing.id)).toBe(false);

    // Removing one makes room.
    await buyer.post({ intent: "remove", listingId: full[0] });
    const room = await buyer.post({ intent: "save", listingId: listing.id, enhanced: "1" });
    expect(await room.json()).toEqual({ ok: true, saved: true, count: MAX_SAVED_LISTINGS });
  });

  it(`keeps ${MAX_SAVED_LISTINGS} listing ids in one cookie a browser accepts (under 4096 bytes)`, async () => {
    const ids = Array.from({ length: MAX_SAVED_LISTINGS }, (_, i) =>
      `${"x".repeat(18)}${String(i).padStart(4, "0")}`.slice(0, 22),
    );
    const header = await savedHeader(ids);
    expect(header.split(";")[0].length).toBeLessThan(4096);
    expect(await readSaved(makeRequest("/saved", { cookie: header.split(";")[0] }))).toEqual(ids);
  });

  it("treats a tampered cookie as no saved listings, and a save then starts a fresh list", async () => {
    const { user } = await createTestUser();
    const { listing } = await createListing(user.id);
    const other = await createListing(user.id);
    const genuine = await savedCookieOf([listing.id]);
    const [name, value] = [
      genuine.slice(0, genuine.indexOf("=")),
      genuine.slice(genuine.indexOf("=") + 1),
    ];
    const [payload, signature] = [
      value.slice(0, value.lastIndexOf(".")),
      value.slice(value.lastIndexOf(".") + 1),
    ];
    // Another list under the genuine signature, and the genuine list under a made-up one.
    const forgedPayload = Buffer.from(
      Buffer.from(decodeURIComponent(payload), "base64")
        .toString()
        .replace(listing.id, other.listing.id),
    ).toString("base64");
    expect(forgedPayload).not.toBe(decodeURIComponent(payload));
    for (const tampered of [
      `${name}=${encodeURIComponent(forgedPayload)}.${signature}`,
      `${name}=${payload}.${"A".repeat(signature.length)}`,
      `${name}=${payload}`,
      `${name}=not-even-base64`,
    ]) {
      const buyer = browser(tampered);
      expect(await buyer.page(), tampered).toEqual([]);
      const root = await (
        await callRoute(rootLoader, makeRequest("/", { cookie: tampered }))
      ).json();
      expect(root.saved).toEqual([]);
    }
    const buyer = browser(`${name}=${encodeURIComponent(forgedPayload)}.${signature}`);
    await buyer.post({ intent: "save", listingId: other.listing.id });
    expect((await buyer.page()).map((entry) => entry.id)).toEqual([other.listing.id]);
    // The genuine cookie still reads.
    expect((await browser(genuine).page()).map((entry) => entry.id)).toEqual([listing.id]);
  });

  it("marks a withdrawn, hidden or banned creator's listing no longer available, showing nothing of it, and lets it be removed", async () => {
    const { user } = await createTestUser();
    const banned = await createTestUser();
    const live = await createListing(user.id, { title: "Still here", price: 30 });
    const withdrawn = await createListing(user.id, { title: "Withdrawn one" });
    const hidden = await createListing(user.id, { title: "Reported one" });
    const ofBanned = await createListing(banned.user.id, { title: "Banned one" });
    const buyer = browser();
    for (const { listing } of [ofBanned, hidden, withdrawn, live])
      await buyer.post({ intent: "save", listingId: listing.id });

    await withdrawListing(getDb(), {
      userId: user.id,
      listingId: withdrawn.listing.id,
      now: new Date(),
      store: getFileStore(),
    });
    await getDb()
      .updateTable("listings")
      .set({ hidden_at: new Date().toISOString() })
      .where("id", "=", hidden.listing.id)
      .execute();
    await updateWhere("users", { banned: 1 }, "id", banned.user.id);

    const listings = await buyer.page();
    expect(listings).toEqual([
      expect.objectContaining({ id: live.listing.id, available: true, title: "Still here" }),
      { id: withdrawn.listing.id, available: false },
      { id: hidden.listing.id, available: false },
      { id: ofBanned.listing.id, available: false },
    ]);
    // Still counted in the header: the list shows them, marked.
    const root = await (
      await callRoute(rootLoader, makeRequest("/", { cookie: buyer.jar.cookie }))
    ).json();
    expect(root.saved).toHaveLength(4);

    await buyer.post({ intent: "remove", listingId: withdrawn.listing.id });
    expect((await buyer.page()).map((entry) => entry.id)).toEqual([
      live.listing.id,
      hidden.listing.id,
      ofBanned.listing.id,
    ]);
  });

  it("refuses to save a listing not for sale (withdrawn or unknown), changing nothing", async () => {
    const { user } = await createTestUser();
    const { listing } = await createListing(user.id);
    await withdrawListing(getDb(), { userId: user.id, listingId: listing.id, now: new Date() });
    const buyer = browser();
    for (const listingId of [listing.id, "no-such-listing"]) {
      const json = await buyer.post({ intent: "save", listingId, enhanced: "1" });
      expect(json.status).toBe(404);
      expect((await json.json()).message).toBe(
        "This listing is not for sale any more, so it cannot be saved.",
      );
      const page = await buyer.post({ intent: "save", listingId, redirectTo: "/marketplace" });
      expect(page.status).toBe(302);
      expect((await flashOf(page))?.title).toBe("Not for sale");
    }
    expect(buyer.jar.cookie).not.toContain("__saved=");
  });

  it("answers bad input with a 400 or 403 and changes nothing", async () => {
    const { user } = await createTestUser();
    const { listing } = await createListing(user.id);
    const buyer = browser();
    const bad: Record<string, string>[] = [
      { intent: "save" },
      { intent: "save", listingId: "" },
      { intent: "save", listingId: "a b" },
      { intent: "save", listingId: "x".repeat(65) },
      { intent: "save", listingId: '"><script>' },
      { intent: "explode", listingId: listing.id },
      { listingId: listing.id },
    ];
    for (const fields of bad) {
      const response = await buyer.post(fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(typeof (await response.json()).message).toBe("string");
    }
    // A form posted from another site.
    expect(
      (await buyer.post({ intent: "save", listingId: listing.id }, { origin: "cross" })).status,
    ).toBe(403);
    // A redirect elsewhere falls back to the saved page.
    const away = await buyer.post({
      intent: "remove",
      listingId: listing.id,
      redirectTo: "https://evil.example/",
      anchor: "javascript:alert(1)",
    });
    expect(away.headers.get("Location")).toBe("/saved");
    expect(buyer.jar.cookie).not.toContain("__saved=");
  });

  it("makes every render that read a saved list this visitor's own (never kept by the page cache)", async () => {
    const cookie = await savedCookieOf(["abc"]);
    const { report } = await reportingRender(() =>
      readSaved(makeRequest("/marketplace", { cookie })),
    );
    expect([...report.found]).toEqual(["saved"]);
    const none = await reportingRender(() => readSaved(makeRequest("/marketplace")));
    expect([...none.report.found]).toEqual([]);
  });
});

describe("the header's cart count", () => {
  it("counts the cart's listings still for sale", async () => {
    const { user } = await createTestUser();
    const one = await createListing(user.id);
    const two = await createListing(user.id);
    let cookie = "";
    for (const { listing } of [one, two]) {
      const added = await callRoute(
        cartAction,
        formRequest("/cart", { intent: "add", listingId: listing.id }, { cookie }),
      );
      cookie = cookiesFrom(added, cookie);
    }
    const count = async () =>
      (await (await callRoute(rootLoader, makeRequest("/", { cookie }))).json()).cart;
    expect(await count()).toEqual([one.listing.id, two.listing.id]);
    await updateWhere("listings", { status: "withdrawn" }, "id", two.listing.id);
    expect(await count()).toEqual([one.listing.id]);
  });
});
