import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { cartCookieWith } from "#tests/setup/test-checkout";
import { action as cartAction } from "~/routes/_market+/cart";
import { findOrderBySessionId } from "~/features/market/orders/orders.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { action as discountsAction, loader as discountsPage } from "~/routes/_studio+/discounts";
import { rowsWhere } from "#tests/setup/rows-where";

/** The Discounts form as a browser without JavaScript posts it (a checkbox per listing). */
function discountForm(cookie: string, fields: Record<string, string>, listingIds: string[] = []) {
  const form = new URLSearchParams({ intent: "create", ...fields });
  for (const id of listingIds) form.append("listingIds", id);
  return formRequest("/discounts", form, { cookie });
}

const codesOf = (userId: string) => rowsWhere("discount_codes", "user_id", userId);

describe("the Discounts screen (no JavaScript)", () => {
  it("makes a code from the form, lists it, and deletes it; a refusal comes back beside its field, nothing made", async () => {
    const creator = await createTestUser({ firstName: "Cleo" });
    const listing = (await createListing(creator.user.id, { price: 6, title: "Cartoon me" }))
      .listing;

    const refused = await callRoute(
      discountsAction,
      discountForm(creator.cookie, { code: "launch", percentOff: "", amountOff: "7" }, [
        listing.id,
      ]),
    );
    expect(refused.status).toBe(400);
    const reply = await refused.json();
    expect(reply.error.amountOff[0]).toBe(
      "The amount off ($7.00) is more than the price of “Cartoon me” ($6.00).",
    );
    expect(reply.initialValue).toMatchObject({ intent: "create", code: "launch" });
    expect(await codesOf(creator.user.id)).toEqual([]);

    const made = await callRoute(
      discountsAction,
      discountForm(
        creator.cookie,
        {
          code: "launch",
          percentOff: "20",
          amountOff: "",
          startsAt: "",
          endsAt: "2027-01-31",
          maxRedemptions: "",
        },
        [listing.id],
      ),
    );
    expect(made.status).toBe(302);
    expect(made.headers.get("Location")).toBe("/discounts");
    const [row] = await codesOf(creator.user.id);
    expect(row).toMatchObject({
      code: "LAUNCH",
      percent_off: 20,
      amount_off_cents: null,
      listing_ids: JSON.stringify([listing.id]),
      starts_at: null,
      ends_at: "2027-01-31T23:59:59.999Z",
      max_redemptions: null,
    });

    const page = await (
      await callRoute(discountsPage, makeRequest("/discounts", { cookie: creator.cookie }))
    ).json();
    expect(page.discounts).toMatchObject([{ id: row.id, code: "LAUNCH", percentOff: 20 }]);
    expect(page.listings).toEqual([{ id: listing.id, title: "Cartoon me", price: "6" }]);

    const deleted = await callRoute(
      discountsAction,
      formRequest("/discounts", { intent: "delete", id: row.id }, { cookie: creator.cookie }),
    );
    expect(deleted.status).toBe(302);
    expect((await codesOf(creator.user.id))[0].deleted_at).not.toBeNull();
  });

  it("sends a visitor to sign in", async () => {
    const response = await callRoute(discountsPage, makeRequest("/discounts")).catch(
      (thrown: Response) => thrown,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/auth/);
  });
});

describe("a discount code at /cart (no JavaScript)", () => {
  it("refuses an unknown code beside its field, starting nothing; a good one starts the checkout at the lower price", async () => {
    const creator = await createTestUser();
    const listing = (await createListing(creator.user.id, { price: 10 })).listing;
    await getDb()
      .insertInto("discount_codes")
      .values({
        id: "cart-code",
        user_id: creator.user.id,
        code: "CART10",
        percent_off: 10,
        amount_off_cents: null,
        listing_ids: null,
        starts_at: null,
        ends_at: null,
        max_redemptions: null,
        deleted_at: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    const cookie = await cartCookieWith(listing.id);
    const post = (discountCode: string) =>
      callRoute(
        cartAction,
        formRequest(
          "/cart",
          { intent: "checkout", name: "Bea Buyer", email: "bea@example.com", discountCode },
          { cookie },
        ),
      );
    const refused = await post("NOPE");
    expect(refused.status).toBe(400);
    const reply = await refused.json();
    expect(reply.error.discountCode).toEqual(["The discount code NOPE does not exist."]);
    expect(reply.initialValue).toMatchObject({ discountCode: "NOPE", name: "Bea Buyer" });

    const started = await post("cart10");
    expect(started.status).toBe(302);
    const sessionId = started.headers.get("Location")!.split("/").pop()!;
    const order = (await findOrderBySessionId(getDb(), decodeURIComponent(sessionId)))!;
    expect(order).toMatchObject({ subtotal_cents: 1000, discount_cents: 100, total_cents: 900 });
  });
});
