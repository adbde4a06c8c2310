import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing, creatorWithListings } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import {
  deleteDiscountsOfCreator,
  discountForCart,
  discountsForExport,
  redeemDiscount,
  type DiscountableItem,
} from "~/features/market/discounts/discounts.server";
import { rowWhere } from "#tests/setup/rows-where";

const discountsApi = apiRoute("/api/token-discounts");
const discountApi = apiRoute("/api/token-discounts/{id}");
const NOW = new Date("2027-03-10T12:00:00Z");

async function post(token: string, body: unknown) {
  const response = await callRoute(
    discountsApi.action,
    makeRequest("/api/token-discounts", { json: body, token }),
  );
  return { status: response.status, body: await response.json() };
}

async function list(token: string) {
  const response = await callRoute(
    discountsApi.loader,
    makeRequest("/api/token-discounts", { token }),
  );
  return { status: response.status, body: await response.json() };
}

async function remove(token: string, id: string) {
  const response = await callRoute(
    discountApi.action,
    makeRequest(`/api/token-discounts/${id}`, { method: "DELETE", token }),
    { id },
  );
  return response.status;
}

const itemsOf = (
  ...groups: {
    creator: { user: { id: string } };
    listings: { id: string; price_cents: number }[];
  }[]
): DiscountableItem[] =>
  groups.flatMap((group) =>
    group.listings.map((listing) => ({
      listingId: listing.id,
      creatorId: group.creator.user.id,
      priceCents: listing.price_cents,
    })),
  );

/** A code made straight in the database, as the API would (the clock of the API is the real one). */
async function code(
  userId: string,
  fields: Partial<{
    code: string;
    percent_off: number | null;
    amount_off_cents: number | null;
    listing_ids: string | null;
    starts_at: string | null;
    ends_at: string | null;
    max_redemptions: number | null;
    redemptions: number;
  }>,
) {
  const id = `code-${Math.random().toString(36).slice(2)}`;
  await getDb()
    .insertInto("discount_codes")
    .values({
      id,
      user_id: userId,
      code: "SPRING",
      percent_off: null,
      amount_off_cents: null,
      listing_ids: null,
      starts_at: null,
      ends_at: null,
      max_redemptions: null,
      redemptions: 0,
      deleted_at: null,
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
      ...fields,
    })
    .execute();
  return id;
}

describe("a creator's discount codes through the API", () => {
  it("makes a code in upper case, lists it with its uses, refuses the same code twice (409) until it is deleted", async () => {
    const { creator, listings } = await creatorWithListings([20]);
    const made = await post(creator.token, {
      code: " launch-10 ",
      percentOff: 10,
      listingIds: [listings[0].id],
      startsAt: "2027-03-01",
      endsAt: "2027-03-31",
      maxRedemptions: 50,
    });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.any(String),
      code: "LAUNCH-10",
      percentOff: 10,
      amountOff: null,
      listingIds: [listings[0].id],
      startsAt: "2027-03-01T00:00:00.000Z",
      endsAt: "2027-03-31T23:59:59.999Z",
      maxRedemptions: 50,
      redemptions: 0,
    });
    expect((await list(creator.token)).body).toEqual([made.body]);

    const again = await post(creator.token, { code: "Launch-10", amountOff: "2.50" });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      "You already have the code LAUNCH-10. Choose another, or delete that one first.",
    );
    // Another creator may have the same code.
    const other = await createTestUser();
    expect((await post(other.token, { code: "LAUNCH-10", percentOff: 5 })).status).toBe(201);

    expect(await remove(other.token, made.body.id)).toBe(404);
    expect(await remove(creator.token, made.body.id)).toBe(204);
    expect(await remove(creator.token, made.body.id)).toBe(404);
    expect((await list(creator.token)).body).toEqual([]);
    const remade = await post(creator.token, { code: "LAUNCH-10", amountOff: "2.50" });
    expect(remade.status).toBe(201);
    expect(remade.body).toMatchObject({ amountOff: "2.50", percentOff: null, listingIds: null });
  });

  it("refuses bad input with a sentence, storing nothing", async () => {
    const { creator, listings } = await creatorWithListings([5]);
    const stranger = await creatorWithListings([30]);
    const refusals: [unknown, number, string][] = [
      [{ code: "AB", percentOff: 10 }, 400, 'A code is 3–32 letters, digits, "-" or "_".'],
      [{ code: "NO SPACE", percentOff: 10 }, 400, 'A code is 3–32 letters, digits, "-" or "_".'],
      [
        { code: "BOTH", percentOff: 10, amountOff: 2 },
        400,
        "Give either a percent off or an amount off, not both.",
      ],
      [{ code: "NEITHER" }, 400, "Give either a percent off or an amount off, not both."],
      [{ code: "PCT", percentOff: 101 }, 400, "The percent off is a whole number from 1 to 100."],
      [{ code: "PCT", percentOff: 0 }, 400, "The percent off is a whole number from 1 to 100."],
      [{ code: "PCT", percentOff: 12.5 }, 400, "The percent off is a whole number from 1 to 100."],
      [{ code: "AMT", amountOff: -1 }, 400, "Enter a price between $0.01 and $10,000.00."],
      [
        { code: "DATES", percentOff: 10, startsAt: "2027-03-10", endsAt: "2027-03-01" },
        400,
        "The end must be after the start.",
      ],
      [
        { code: "DATES", percentOff: 10, startsAt: "2027-02-30" },
        400,
        "Enter a date (YYYY-MM-DD) or a date and time (ISO 8601).",
      ],
      [
        { code: "DATES", percentOff: 10, endsAt: "next week" },
        400,
        "Enter a date (YYYY-MM-DD) or a date and time (ISO 8601).",
      ],
      [
        { code: "USES", percentOff: 10, maxRedemptions: 0 },
        400,
        "The most uses is a whole number from 1 to 1,000,000.",
      ],
      [
        { code: "TOOMUCH", amountOff: 6, listingIds: [listings[0].id] },
        400,
        "The amount off ($6.00) is more than the price of “Item 1” ($5.00).",
      ],
      [
        { code: "THEIRS", percentOff: 10, listingIds: [stranger.listings[0].id] },
        404,
        "Listing not found: a code applies only to your own live listings.",
      ],
    ];
    for (const [body, status, message] of refusals) {
      const answer = await post(creator.token, body);
      expect([answer.status, answer.body.message], JSON.stringify(body)).toEqual([
        status,
        expect.stringContaining(message),
      ]);
    }
    expect((await list(creator.token)).body).toEqual([]);
  });
});

describe("what a code takes off a cart", () => {
  it("takes a percent off the creator's items, spread in whole cents by price, and nothing off another creator's", async () => {
    const dana = await creatorWithListings([10, 5]);
    const eli = await creatorWithListings([8]);
    await code(dana.creator.user.id, { percent_off: 15 });
    const taken = await discountForCart(getDb(), {
      code: "spring",
      items: itemsOf(dana, eli),
      now: NOW,
    });
    // 15 % of $15.00 = $2.25: $1.50 and $0.75; Eli's $8 untouched.
    expect(taken.itemDiscounts).toEqual([150, 75, 0]);
    expect(taken.totalCents).toBe(225);
  });

  it("takes an amount off once per order, over the listings it names only", async () => {
    const dana = await creatorWithListings([10, 5, 3]);
    await code(dana.creator.user.id, {
      amount_off_cents: 400,
      listing_ids: JSON.stringify([dana.listings[0].id, dana.listings[1].id]),
    });
    const taken = await discountForCart(getDb(), {
      code: "SPRING",
      items: itemsOf(dana),
      now: NOW,
    });
    // $4.00 over $10 and $5: 267 and 133 (largest remainder), nothing off the $3 listing.
    expect(taken.itemDiscounts).toEqual([267, 133, 0]);
    expect(taken.totalCents).toBe(400);
  });

  it("applies each creator's own code of the same text to their own items", async () => {
    const dana = await creatorWithListings([10]);
    const eli = await creatorWithListings([20]);
    await code(dana.creator.user.id, { percent_off: 10 });
    await code(eli.creator.user.id, { amount_off_cents: 500 });
    const taken = await discountForCart(getDb(), {
      code: "SPRING",
      items: itemsOf(dana, eli),
      now: NOW,
    });
    expect(taken.itemDiscounts).toEqual([100, 500]);
    expect(taken.codes).toHaveLength(2);
  });

  it("says why a code takes nothing: unknown, another creator's, not for these images, not started, expired, used up, more than the price", async () => {
    const dana = await creatorWithListings([5]);
    const eli = await creatorWithListings([9]);
    const refusal = async (items: DiscountableItem[], text: string) =>
      discountForCart(getDb(), { code: text, items, now: NOW }).then(
        () => "took something off",
        (error: { status: number; message: string }) => `${error.status} ${error.message}`,
      );
    expect(await refusal(itemsOf(dana), "NOPE")).toBe("400 The discount code NOPE does not exist.");
    expect(await refusal(itemsOf(dana), "a'; drop table")).toBe(
      "400 The discount code A'; DROP TABLE does not exist.",
    );
    await code(eli.creator.user.id, { code: "ELIS", percent_off: 10 });
    expect(await refusal(itemsOf(dana), "ELIS")).toBe(
      "400 The discount code ELIS is another creator's: it takes money off only their images, and none is in your cart.",
    );
    const other = (await createListing(dana.creator.user.id, { price: 4 })).listing;
    await code(dana.creator.user.id, {
      code: "ONLY",
      percent_off: 10,
      listing_ids: JSON.stringify([other.id]),
    });
    expect(await refusal(itemsOf(dana), "ONLY")).toBe(
      "400 The discount code ONLY does not apply to the images in your cart.",
    );
    await code(dana.creator.user.id, {
      code: "SOON",
      percent_off: 10,
      starts_at: "2027-03-11T00:00:00.000Z",
    });
    expect(await refusal(itemsOf(dana), "SOON")).toBe(
      "400 The discount code SOON starts on 2027-03-11.",
    );
    await code(dana.creator.user.id, {
      code: "OLD",
      percent_off: 10,
      ends_at: "2027-03-10T11:59:59.999Z",
    });
    expect(await refusal(itemsOf(dana), "OLD")).toBe("400 The discount code OLD has expired.");
    await code(dana.creator.user.id, {
      code: "GONE",
      percent_off: 10,
      max_redemptions: 3,
      redemptions: 3,
    });
    expect(await refusal(itemsOf(dana), "GONE")).toBe(
      "400 The discount code GONE has been used up.",
    );
    await code(dana.creator.user.id, { code: "BIG", amount_off_cents: 600 });
    expect(await refusal(itemsOf(dana), "BIG")).toBe(
      "400 The discount code BIG takes off $6.00, more than the $5.00 of the images it applies to.",
    );
    // Within its dates, a code works to the moment it ends.
    await code(dana.creator.user.id, {
      code: "NOW",
      percent_off: 100,
      starts_at: "2027-03-10T12:00:00.000Z",
      ends_at: "2027-03-10T12:00:00.001Z",
    });
    expect(
      (await discountForCart(getDb(), { code: "NOW", items: itemsOf(dana), now: NOW })).totalCents,
    ).toBe(500);
  });
});

describe("counting a code's uses", () => {
  it("counts a use only while uses are left", async () => {
    const { creator } = await creatorWithListings([5]);
    const id = await code(creator.user.id, { percent_off: 10, max_redemptions: 2 });
    expect(await redeemDiscount(getDb(), id)).toBe(true);
    expect(await redeemDiscount(getDb(), id)).toBe(true);
    expect(await redeemDiscount(getDb(), id)).toBe(false);
    const row = await rowWhere("discount_codes", "redemptions", "id", id);
    expect(row.redemptions).toBe(2);
    const open = await code(creator.user.id, { code: "OPEN", percent_off: 10 });
    for (let i = 0; i < 5; i++) expect(await redeemDiscount(getDb(), open)).toBe(true);
  });

  it("gives the creator's codes, deleted ones too, to their export, and deletes them all at erasure", async () => {
    const { creator } = await creatorWithListings([5]);
    await code(creator.user.id, { percent_off: 10 });
    await code(creator.user.id, { code: "OLDONE", amount_off_cents: 100 });
    await getDb()
      .updateTable("discount_codes")
      .set({ deleted_at: NOW.toISOString() })
      .where("code", "=", "OLDONE")
      .where("user_id", "=", creator.user.id)
      .execute();
    const exported = await discountsForExport(getDb(), creator.user.id);
    expect(exported.map((row) => [row.code, row.deletedAt])).toEqual([
      ["SPRING", null],
      ["OLDONE", NOW.toISOString()],
    ]);
    await deleteDiscountsOfCreator(getDb(), creator.user.id);
    expect(await discountsForExport(getDb(), creator.user.id)).toEqual([]);
  });
});
