import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing, creatorWithListings } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { downloadGrantsOf, earningsOf, payTestCheckout } from "#tests/setup/test-checkout";
import { findOrderBySessionId, itemsOfOrder } from "~/features/market/orders/orders.server";
import { licenseByLicenseId } from "~/features/market/orders/licenses.server";
import { splitBundlePrice } from "~/features/market/bundles/price-split";
import { bundlePage } from "~/features/market/bundles/bundles.server";
import { withdrawListing } from "~/features/market/catalog/listings.server";
import { cartContents } from "~/features/market/checkout/cart-contents.server";
import { bundleCartEntry } from "~/features/market/bundles/bundle-schema";
import { getFileStore } from "~/infra/file-store.server";
import { creatorAnalytics } from "~/features/market/analytics/analytics.server";
import { centsToPriceString } from "~/lib/money";
import { creatorMarketExport } from "~/features/market/creator-export.server";
import {
  eraseListingsOfCreator,
  withdrawListingsOfErasedCreator,
} from "~/features/market/creator-erasure.server";
import { rowsWhere, selectWhere } from "#tests/setup/rows-where";

const bundlesApi = apiRoute("/api/token-bundles");
const bundleApi = apiRoute("/api/token-bundles/{id}");
const { action: createSessionApi } = apiRoute("/api/create-checkout-session");
const buyer = { name: "Bea Buyer", email: "bea@example.com" };

async function postBundle(token: string, body: unknown) {
  const response = await callRoute(
    bundlesApi.action,
    makeRequest("/api/token-bundles", { json: body, token }),
  );
  return { status: response.status, body: await response.json() };
}

async function checkoutOf(cartItems: unknown[]) {
  const response = await callRoute(
    createSessionApi,
    makeRequest("/api/create-checkout-session", { json: { cartItems, customerInfo: buyer } }),
  );
  return { status: response.status, body: await response.json() };
}

describe("splitBundlePrice", () => {
  it("splits in proportion, in whole cents adding up to the price, the leftover cents to the largest remainders", () => {
    expect(splitBundlePrice(999, [700, 200, 100])).toEqual([699, 200, 100]);
    expect(splitBundlePrice(500, [333, 333, 334])).toEqual([167, 166, 167]);
    expect(splitBundlePrice(1000, [333, 333, 334])).toEqual([333, 333, 334]);
    expect(splitBundlePrice(100, [1, 1, 1])).toEqual([34, 33, 33]);
    for (const [price, items] of [
      [1, [5, 5, 5]],
      [997, [333, 334, 335, 1]],
      [123457, [99999, 1, 50000]],
    ] as const) {
      expect(splitBundlePrice(price, items).reduce((a, b) => a + b, 0)).toBe(price);
    }
  });
});

describe("POST /api/token-bundles", () => {
  it("makes a bundle of the caller's live listings: 201 {id, url}, its page sums and saves", async () => {
    const { creator, listings } = await creatorWithListings([7, 2, 1]);
    const created = await postBundle(creator.token, {
      title: "Three looks",
      listingIds: listings.map((l) => l.id),
      price: "9.99",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      url: `http://localhost:3000/bundles/${created.body.id}`,
    });
    const page = await bundlePage(getDb(), created.body.id, "http://localhost:3000");
    expect(page).toMatchObject({
      title: "Three looks",
      available: true,
      sumCents: 1000,
      priceCents: 999,
      savingCents: 1,
      items: listings.map((l) => ({ listingId: l.id, title: l.title, priceCents: l.price_cents })),
    });
  });

  it("refuses each bad bundle with a sentence and makes nothing", async () => {
    const { creator, listings } = await creatorWithListings([5, 5, 5]);
    const other = await creatorWithListings([5]);
    const withdrawn = (await createListing(creator.user.id)).listing;
    await withdrawListing(getDb(), {
      userId: creator.user.id,
      listingId: withdrawn.id,
      now: new Date(),
    });
    const ids = listings.map((l) => l.id);
    const cases: [string, unknown, number, RegExp][] = [
      ["price equal to the sum", { title: "B", listingIds: ids, price: 15 }, 400, /below the sum/],
      ["price above the sum", { title: "B", listingIds: ids, price: 16 }, 400, /below the sum/],
      ["one listing", { title: "B", listingIds: [ids[0]], price: 1 }, 400, /2 to 10/],
      ["no listings", { title: "B", listingIds: [], price: 1 }, 400, /2 to 10/],
      [
        "eleven listings",
        { title: "B", listingIds: Array.from({ length: 11 }, (_, i) => `id${i}`), price: 1 },
        400,
        /2 to 10/,
      ],
      ["duplicates", { title: "B", listingIds: [ids[0], ids[0]], price: 1 }, 400, /once/],
      ["no price", { title: "B", listingIds: ids }, 400, /price/i],
      ["no title", { listingIds: ids, price: 1 }, 400, /title/],
      [
        "another creator's listing",
        { title: "B", listingIds: [ids[0], other.listings[0].id], price: 1 },
        404,
        /Listing not found/,
      ],
      [
        "a withdrawn listing",
        { title: "B", listingIds: [ids[0], withdrawn.id], price: 1 },
        404,
        /Listing not found/,
      ],
      [
        "an unknown listing",
        { title: "B", listingIds: [ids[0], "nope"], price: 1 },
        404,
        /Listing not found/,
      ],
    ];
    for (const [name, body, status, message] of cases) {
      const result = await postBundle(creator.token, body);
      expect(result.status, name).toBe(status);
      expect(result.body.message, name).toMatch(message);
    }
    const made = await selectWhere("bundles", "id", "user_id", creator.user.id);
    expect(made).toEqual([]);
    const anonymous = await callRoute(
      bundlesApi.action,
      makeRequest("/api/token-bundles", { json: { title: "B", listingIds: ids, price: 1 } }),
    );
    expect(anonymous.status).toBe(401);
  });
});

describe("buying a bundle", () => {
  it("is an order item per listing with its proportional part; shares and fees add up to the bundle's price; a grant each; the license lists each", async () => {
    const { creator, listings } = await creatorWithListings([7, 2, 1]);
    const { body: bundle } = await postBundle(creator.token, {
      title: "Three looks",
      listingIds: listings.map((l) => l.id),
      price: 9.99,
    });
    const { status, body } = await checkoutOf([{ bundleId: bundle.id }]);
    expect(status).toBe(200);
    expect((await payTestCheckout(body.sessionId)).status).toBe(302);
    const order = (await findOrderBySessionId(getDb(), body.sessionId))!;
    expect(order).toMatchObject({ status: "paid", total_cents: 999 });
    const items = await itemsOfOrder(getDb(), order.id);
    expect(items.map((item) => [item.listing_id, item.price_cents, item.bundle_id])).toEqual([
      [listings[0].id, 699, bundle.id],
      [listings[1].id, 200, bundle.id],
      [listings[2].id, 100, bundle.id],
    ]);
    const earnings = await earningsOf(order.id);
    expect(earnings).toHaveLength(3);
    for (const item of items) {
      const share = earnings.find((e) => e.order_item_id === item.id)!;
      expect(share.amount_cents + share.platform_fee_cents).toBe(item.price_cents);
    }
    expect(earnings.reduce((sum, e) => sum + e.amount_cents + e.platform_fee_cents, 0)).toBe(999);
    const grants = await downloadGrantsOf(order.id);
    expect(grants.map((g) => g.order_item_id).sort()).toEqual(items.map((i) => i.id).sort());
    const license = await licenseByLicenseId(getDb(), order.license_id);
    expect(license?.items.map((item) => item.title)).toEqual(listings.map((l) => l.title));
  });

  it("mixes with listings bought on their own; a listing twice in one order is a 400", async () => {
    const { creator, listings } = await creatorWithListings(["3.33", "3.33", "3.34"]);
    const single = (await createListing(creator.user.id, { price: 4 })).listing;
    const { body: bundle } = await postBundle(creator.token, {
      title: "Trio",
      listingIds: listings.map((l) => l.id),
      price: 5,
    });
    const mixed = await checkoutOf([{ imageId: single.id }, { bundleId: bundle.id }]);
    expect(mixed.status).toBe(200);
    const order = (await findOrderBySessionId(getDb(), mixed.body.sessionId))!;
    expect(order.total_cents).toBe(900);
    expect((await itemsOfOrder(getDb(), order.id)).map((i) => i.price_cents)).toEqual([
      400, 167, 166, 167,
    ]);
    const twice = await checkoutOf([{ imageId: listings[1].id }, { bundleId: bundle.id }]);
    expect(twice.status).toBe(400);
    expect(twice.body.message).toMatch(/in your cart twice/);
    const both = await checkoutOf([{ imageId: single.id, bundleId: bundle.id }]);
    expect(both.status).toBe(400);
    const unknown = await checkoutOf([{ bundleId: "nope" }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/bundle in your cart is no longer available/);
  });
});

describe("withdrawal", () => {
  it("withdrawing any of its listings withdraws the bundle: its page says so, checkout and cart refuse it", async () => {
    const { creator, listings } = await creatorWithListings([5, 5]);
    const { body: bundle } = await postBundle(creator.token, {
      title: "Pair",
      listingIds: listings.map((l) => l.id),
      price: 8,
    });
    expect((await cartContents(getDb(), [bundleCartEntry(bundle.id)])).items).toHaveLength(1);
    await withdrawListing(getDb(), {
      userId: creator.user.id,
      listingId: listings[1].id,
      now: new Date(),
    });
    const page = await bundlePage(getDb(), bundle.id, "http://localhost:3000");
    expect(page).toMatchObject({ status: "withdrawn", available: false });
    const refused = await checkoutOf([{ bundleId: bundle.id }]);
    expect(refused.status).toBe(400);
    expect(await cartContents(getDb(), [bundleCartEntry(bundle.id)])).toMatchObject({
      items: [],
      unavailable: [bundleCartEntry(bundle.id)],
    });
  });

  it("the creator withdraws their own bundle (DELETE /api/token-bundles/{id}); another's is a 404", async () => {
    const { creator, listings } = await creatorWithListings([5, 5]);
    const other = await createTestUser();
    const { body: bundle } = await postBundle(creator.token, {
      title: "Pair",
      listingIds: listings.map((l) => l.id),
      price: 8,
    });
    const request = (token: string) =>
      callRoute(
        bundleApi.action,
        makeRequest(`/api/token-bundles/${bundle.id}`, { method: "DELETE", token }),
        { id: bundle.id },
      );
    expect((await request(other.token)).status).toBe(404);
    expect((await bundlePage(getDb(), bundle.id, ""))?.available).toBe(true);
    expect((await request(creator.token)).status).toBe(204);
    expect((await bundlePage(getDb(), bundle.id, ""))?.available).toBe(false);
    // Its listings stay for sale.
    expect((await checkoutOf([{ imageId: listings[0].id }])).status).toBe(200);
  });
});

describe("erasure and export", () => {
  it("the creator's export lists their bundles; erasure withdraws them at once and its job deletes them", async () => {
    const { creator, listings } = await creatorWithListings([5, 5]);
    const { body: bundle } = await postBundle(creator.token, {
      title: "Pair",
      listingIds: listings.map((l) => l.id),
      price: 8,
    });
    const exported = await creatorMarketExport(getDb(), creator.user.id);
    expect(exported.bundles).toEqual([
      expect.objectContaining({
        id: bundle.id,
        title: "Pair",
        price: "8",
        status: "active",
        listingIds: listings.map((l) => l.id),
      }),
    ]);
    await getDb()
      .transaction()
      .execute((trx) => withdrawListingsOfErasedCreator(trx, creator.user.id, new Date()));
    expect((await bundlePage(getDb(), bundle.id, ""))?.status).toBe("withdrawn");
    await eraseListingsOfCreator(getDb(), getFileStore(), {
      userId: creator.user.id,
      keep: new Set(),
    });
    expect(await rowsWhere("bundles", "id", bundle.id)).toEqual([]);
    expect(await rowsWhere("bundle_items", "bundle_id", bundle.id)).toEqual([]);
  });
});

describe("bundles in the creator's analytics", () => {
  it("counts a bundle's sale once with its share of the items; a test sale only where test sales count", async () => {
    const { creator, listings } = await creatorWithListings([6, 4]);
    const { body: bundle } = await postBundle(creator.token, {
      title: "Two looks",
      listingIds: listings.map((l) => l.id),
      price: 8,
    });
    const { body } = await checkoutOf([{ bundleId: bundle.id }]);
    expect((await payTestCheckout(body.sessionId)).status).toBe(302);
    const order = (await findOrderBySessionId(getDb(), body.sessionId))!;
    const share = (await earningsOf(order.id)).reduce((sum, e) => sum + e.amount_cents, 0);

    const counted = await creatorAnalytics(getDb(), creator.user.id, 7, new Date(), {
      includeTestSales: true,
    });
    expect(counted.bundles).toEqual([
      { bundleId: bundle.id, title: "Two looks", sales: 1, earnings: centsToPriceString(share) },
    ]);
    // Each item's sale is in the listings too.
    expect(counted.listings.map((l) => l.sales)).toEqual([1, 1]);

    // A production server: the test checkout's sale is no sale.
    const production = await creatorAnalytics(getDb(), creator.user.id, 7, new Date(), {
      includeTestSales: false,
    });
    expect(production.bundles).toEqual([
      { bundleId: bundle.id, title: "Two looks", sales: 0, earnings: "0" },
    ]);
  });
});
