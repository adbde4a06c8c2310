import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { createLibraryToken } from "~/features/market/library/library-token.server";
import { NOT_RATEABLE, ratingsOfListings } from "~/features/market/catalog/ratings.server";
import { checkoutSessionHash } from "~/features/market/orders/orders.server";
import { action as libraryAction, loader as libraryPage } from "~/routes/_market+/library";
import { loader as marketplacePage } from "~/routes/_market+/marketplace";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { openTestCheckout, payTestCheckout } from "#tests/setup/test-checkout";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

/**
 * Buyers' ratings: only a buyer who paid rates, from the library, once per
 * purchased item (a second rating replaces the first), never a refunded one;
 * a listing's average and count come from paid orders only.
 */

const newEmail = () => `rater-${crypto.randomBytes(5).toString("hex")}@example.com`;

/** Buys the listings in the built-in test checkout, as a browser would; answers the order. */
async function buy(email: string, listingIds: string[], pay = true) {
  const sessionId = await openTestCheckout(
    listingIds,
    { name: "Rae Rater", email },
    { licenseType: "standard" },
  );
  if (pay) await payTestCheckout(sessionId);
  const order = await rowWhere(
    "orders",
    "*",
    "checkout_session_hash",
    checkoutSessionHash(sessionId),
  );
  const items = await rowsWhere("order_items", "order_id", order.id);
  return { order, items };
}

const rate = (email: string, fields: Record<string, string>) => {
  const token = createLibraryToken(email, new Date());
  return callRoute(
    libraryAction,
    formRequest(`/library?token=${token}`, { intent: "rate", token, ...fields }),
  );
};

const ratingRows = (orderItemId: string) => rowsWhere("ratings", "order_item_id", orderItemId);

describe("rating a purchase from the library", () => {
  it("is for the buyer who paid, once per item: a second rating replaces the first", async () => {
    const { user: creator } = await createTestUser();
    const { listing } = await createListing(creator.id, { title: "Rated" });
    const buyer = newEmail();
    const { items } = await buy(buyer, [listing.id]);
    const item = items[0];

    const saved = await rate(buyer, {
      orderItemId: item.id,
      stars: "4",
      text: "  Crisp and useful.  ",
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toMatch(
      new RegExp(`&rated=${item.id}#rating-${item.id}$`),
    );
    expect(await ratingRows(item.id)).toMatchObject([
      { stars: 4, text: "Crisp and useful.", listing_id: listing.id },
    ]);

    expect(
      (await rate(buyer, { orderItemId: item.id, stars: "2", text: "Changed my mind." })).status,
    ).toBe(302);
    expect(await ratingRows(item.id)).toMatchObject([{ stars: 2, text: "Changed my mind." }]);

    // The library shows the buyer their rating.
    const page = await callRoute(
      libraryPage,
      makeRequest(`/library?token=${createLibraryToken(buyer, new Date())}`),
    );
    expect((await page.json()).ratings[item.id]).toMatchObject({
      stars: 2,
      text: "Changed my mind.",
    });
  });

  it("is refused to anyone else, for an unpaid order, and for bad stars or a text over 500 characters, changing nothing", async () => {
    const { user: creator } = await createTestUser();
    const { listing } = await createListing(creator.id);
    const buyer = newEmail();
    const { items } = await buy(buyer, [listing.id]);
    const stranger = await rate(newEmail(), { orderItemId: items[0].id, stars: "1" });
    expect(stranger.status).toBe(400);
    expect(JSON.stringify(await stranger.json())).toContain(NOT_RATEABLE);

    const unpaidBuyer = newEmail();
    const unpaid = await buy(unpaidBuyer, [listing.id], false);
    expect(unpaid.order.status).toBe("pending");
    expect((await rate(unpaidBuyer, { orderItemId: unpaid.items[0].id, stars: "5" })).status).toBe(
      400,
    );

    for (const fields of [
      { stars: "0" },
      { stars: "6" },
      { stars: "four" },
      { stars: "3", text: "x".repeat(501) },
    ] as Record<string, string>[]) {
      expect((await rate(buyer, { orderItemId: items[0].id, ...fields })).status).toBe(400);
    }
    // A forged library token rates nothing.
    const forged = await callRoute(
      libraryAction,
      formRequest("/library", {
        intent: "rate",
        token: "forged.token",
        orderItemId: items[0].id,
        stars: "5",
      }),
    );
    expect(forged.status).toBe(400);
    expect(await ratingRows(items[0].id)).toEqual([]);
    expect(await ratingRows(unpaid.items[0].id)).toEqual([]);
  });

  it("is refused for a refunded item, and a rating given before the refund stops counting", async () => {
    const { user: creator } = await createTestUser();
    const { listing } = await createListing(creator.id);
    const kept = newEmail();
    const refunded = newEmail();
    await rate(kept, { orderItemId: (await buy(kept, [listing.id])).items[0].id, stars: "5" });
    const bought = await buy(refunded, [listing.id]);
    await rate(refunded, { orderItemId: bought.items[0].id, stars: "1" });
    expect(await ratingsOfListings(getDb(), [listing.id])).toEqual({
      [listing.id]: { average: 3, count: 2 },
    });

    await updateWhere("orders", { status: "refunded" }, "id", bought.order.id);
    expect(await ratingsOfListings(getDb(), [listing.id])).toEqual({
      [listing.id]: { average: 5, count: 1 },
    });
    expect((await rate(refunded, { orderItemId: bought.items[0].id, stars: "2" })).status).toBe(
      400,
    );
  });
});

describe("the marketplace's ratings", () => {
  it("give each rated listing its buyers' average and count; a listing without ratings is left to the illustrative stars", async () => {
    const { user: creator } = await createTestUser();
    const { listing: rated } = await createListing(creator.id, { title: "Has ratings" });
    const { listing: unrated } = await createListing(creator.id, { title: "No ratings" });
    for (const stars of ["5", "4", "4"]) {
      const buyer = newEmail();
      await rate(buyer, { orderItemId: (await buy(buyer, [rated.id])).items[0].id, stars });
    }
    const ratings = await ratingsOfListings(getDb(), [rated.id, unrated.id]);
    expect(ratings).toEqual({ [rated.id]: { average: 4.3, count: 3 } });
    const page = await (await callRoute(marketplacePage, makeRequest("/marketplace"))).json();
    expect(page.ratings[rated.id]).toEqual({ average: 4.3, count: 3 });
    expect(page.ratings[unrated.id]).toBeUndefined();
  });
});
