import { describe, expect, it } from "vitest";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { action as listingsAction, loader as listingsPage } from "~/routes/_studio+/listings";
import { rowWhere } from "#tests/setup/rows-where";

/** The list form on /listings, as a browser without JavaScript posts it. */
function listForm(cookie: string, fields: Record<string, string>) {
  return formRequest(
    "/listings",
    { intent: "list", redirectTo: "/listings", ...fields },
    { cookie },
  );
}

const tierPricesOf = (listingId: string) =>
  rowWhere(
    "listings",
    ["price_cents", "extended_price_cents", "exclusive_price_cents"],
    "id",
    listingId,
  );

describe("the list form on /listings and the licence tiers", () => {
  it("starts from the live listing's Extended and Exclusive prices, so an update keeps them; a changed one is saved", async () => {
    const creator = await createTestUser();
    const { listing, stylized } = await createListing(creator.user.id, {
      price: 10,
      extendedPrice: 40,
      exclusivePrice: 300,
    });
    const page = await callRoute(
      listingsPage,
      makeRequest(`/listings?stylizedImageId=${stylized.id}`, { cookie: creator.cookie }),
    );
    const { form } = await page.json();
    expect([form.price, form.extendedPrice, form.exclusivePrice]).toEqual(["10", "40", "300"]);

    // The form as it was shown, with a new Standard price: the tiers stay.
    const fields = {
      stylizedImageId: stylized.id,
      title: form.title,
      description: form.description,
      tags: form.tags,
      licensingEnabled: "true",
    };
    const updated = await callRoute(
      listingsAction,
      listForm(creator.cookie, {
        ...fields,
        price: "12",
        extendedPrice: form.extendedPrice,
        exclusivePrice: form.exclusivePrice,
      }),
    );
    expect(updated.status).toBe(302);
    expect(await tierPricesOf(listing.id)).toEqual({
      price_cents: 1200,
      extended_price_cents: 4000,
      exclusive_price_cents: 30000,
    });

    // Emptied, the Extended tier is no longer offered; below the Standard price, it is refused.
    await callRoute(
      listingsAction,
      listForm(creator.cookie, {
        ...fields,
        price: "12",
        extendedPrice: "",
        exclusivePrice: "300",
      }),
    );
    expect(await tierPricesOf(listing.id)).toMatchObject({ extended_price_cents: null });
    const refused = await callRoute(
      listingsAction,
      listForm(creator.cookie, { ...fields, price: "12", extendedPrice: "5", exclusivePrice: "" }),
    );
    expect(refused.status).toBe(400);
    expect(await tierPricesOf(listing.id)).toMatchObject({
      extended_price_cents: null,
      exclusive_price_cents: 30000,
    });
  });
});
