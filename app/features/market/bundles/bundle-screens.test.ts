import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { payTestCheckout } from "#tests/setup/test-checkout";
import { action as listingsAction, loader as listingsPage } from "~/routes/_studio+/listings";
import { loader as bundlePage } from "~/routes/_market+/bundles.$bundleId";
import { action as cartAction, loader as cartPage } from "~/routes/_market+/cart";
import { findOrderBySessionId, itemsOfOrder } from "~/features/market/orders/orders.server";
import { withdrawListing } from "~/features/market/catalog/listings.server";
import { rowsWhere } from "#tests/setup/rows-where";

/** The bundle form on /listings, as a browser without JavaScript posts it (a checkbox per listing). */
function bundleForm(cookie: string, fields: { title: string; price: string; ids: string[] }) {
  const form = new URLSearchParams({ intent: "bundle", title: fields.title, price: fields.price });
  for (const id of fields.ids) form.append("listingIds", id);
  return formRequest("/listings", form, { cookie });
}

async function creatorWithTwo() {
  const creator = await createTestUser({ firstName: "Cleo" });
  const a = (await createListing(creator.user.id, { price: 6, title: "Cartoon me" })).listing;
  const b = (await createListing(creator.user.id, { price: 4, title: "Anime me" })).listing;
  return { creator, ids: [a.id, b.id] };
}

async function bundlesOf(userId: string) {
  return rowsWhere("bundles", "user_id", userId);
}

describe("the bundle form on /listings (no JavaScript)", () => {
  it("makes a bundle and comes back to Your bundles; a refusal comes back beside its field, nothing made", async () => {
    const { creator, ids } = await creatorWithTwo();
    const refused = await callRoute(
      listingsAction,
      bundleForm(creator.cookie, { title: "Pair", price: "10", ids }),
    );
    expect(refused.status).toBe(400);
    const reply = await refused.json();
    expect(reply.error.price[0]).toMatch(/below the sum/);
    expect(reply.initialValue).toMatchObject({ intent: "bundle", title: "Pair" });
    expect(await bundlesOf(creator.user.id)).toEqual([]);

    const one = await callRoute(
      listingsAction,
      bundleForm(creator.cookie, { title: "Pair", price: "8", ids: [ids[0]] }),
    );
    expect(one.status).toBe(400);
    expect((await one.json()).error.listingIds[0]).toMatch(/2 to 10/);

    const made = await callRoute(
      listingsAction,
      bundleForm(creator.cookie, { title: "Pair", price: "8.50", ids }),
    );
    expect(made.status).toBe(302);
    expect(made.headers.get("Location")).toBe("/listings#your-bundles");
    const [bundle] = await bundlesOf(creator.user.id);
    expect(bundle).toMatchObject({ title: "Pair", price_cents: 850, status: "active" });

    const page = await callRoute(
      listingsPage,
      makeRequest("/listings", { cookie: creator.cookie }),
    );
    const data = await page.json();
    expect(data.bundles).toMatchObject([{ id: bundle.id, available: true, sumCents: 1000 }]);

    const withdrawn = await callRoute(
      listingsAction,
      formRequest(
        "/listings",
        { intent: "withdraw-bundle", id: bundle.id },
        { cookie: creator.cookie },
      ),
    );
    expect(withdrawn.status).toBe(302);
    expect((await bundlesOf(creator.user.id))[0].status).toBe("withdrawn");
  });
});

describe("the bundle's page and the cart", () => {
  it("shows the bundle, adds it to the cookie cart, checks it out and delivers an item per listing", async () => {
    const { creator, ids } = await creatorWithTwo();
    await callRoute(listingsAction, bundleForm(creator.cookie, { title: "Pair", price: "8", ids }));
    const [bundle] = await bundlesOf(creator.user.id);
    const page = await callRoute(bundlePage, makeRequest(`/bundles/${bundle.id}`), {
      bundleId: bundle.id,
    });
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({
      bundle: {
        title: "Pair",
        available: true,
        creator: { name: "Cleo" },
        sumCents: 1000,
        priceCents: 800,
        savingCents: 200,
        items: [{ title: "Cartoon me" }, { title: "Anime me" }],
      },
      inCart: false,
    });
    const unknown = await callRoute(bundlePage, makeRequest("/bundles/nope"), { bundleId: "nope" });
    expect(unknown.status).toBe(404);

    const added = await callRoute(
      cartAction,
      formRequest("/cart", {
        intent: "add",
        listingId: `bundle:${bundle.id}`,
        redirectTo: `/bundles/${bundle.id}`,
      }),
    );
    expect(added.status).toBe(302);
    const cookie = cookiesFrom(added);
    const cart = await (await callRoute(cartPage, makeRequest("/cart", { cookie }))).json();
    expect(cart).toMatchObject({
      totalCents: 800,
      items: [{ id: `bundle:${bundle.id}`, title: "Pair", bundle: { itemCount: 2 } }],
    });
    const checkout = await callRoute(
      cartAction,
      formRequest(
        "/cart",
        { intent: "checkout", name: "Bea", email: "bea@example.com" },
        { cookie },
      ),
    );
    expect(checkout.status).toBe(302);
    const sessionId = new URL(checkout.headers.get("Location")!, "http://x").pathname
      .split("/")
      .pop()!;
    expect((await payTestCheckout(sessionId)).status).toBe(302);
    const order = (await findOrderBySessionId(getDb(), sessionId))!;
    expect(order).toMatchObject({ status: "paid", total_cents: 800 });
    expect((await itemsOfOrder(getDb(), order.id)).map((item) => item.price_cents)).toEqual([
      480, 320,
    ]);

    // Withdrawing one of its listings: the page says so, the cart drops it as "no longer for sale".
    await withdrawListing(getDb(), { userId: creator.user.id, listingId: ids[0], now: new Date() });
    const after = await (
      await callRoute(bundlePage, makeRequest(`/bundles/${bundle.id}`), { bundleId: bundle.id })
    ).json();
    expect(after.bundle.available).toBe(false);
    const stale = await (await callRoute(cartPage, makeRequest("/cart", { cookie }))).json();
    expect(stale).toMatchObject({ items: [], unavailable: 1 });
  });
});
