import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { earningsOf, payTestCheckout, paymentStatusOf } from "#tests/setup/test-checkout";
import { createDiscount } from "~/features/market/discounts/discounts.server";
import { CODE_USED_UP_REFUND_REASON } from "~/features/market/discounts/discount-redemption.server";
import {
  createPendingOrder,
  findOrderBySessionId,
  itemsOfOrder,
} from "~/features/market/orders/orders.server";
import { fulfillOrder } from "~/features/market/orders/fulfillment.server";
import { monthlySalesOf } from "~/features/market/analytics/sales-csv.server";
import {
  fulfilAtOnce,
  orderStatuses,
  queuedRefundPayloads,
  withTwoProcesses,
} from "#tests/setup/concurrent-fulfilment";
import { rowCount, rowWhere } from "#tests/setup/rows-where";

const { action: createSessionApi } = apiRoute("/api/create-checkout-session");
const buyer = { name: "Bea Buyer", email: "bea@example.com" };

async function checkoutWith(listingIds: string[], discountCode?: unknown) {
  const response = await callRoute(
    createSessionApi,
    makeRequest("/api/create-checkout-session", {
      json: {
        cartItems: listingIds.map((imageId) => ({ imageId })),
        customerInfo: buyer,
        ...(discountCode === undefined ? {} : { discountCode }),
      },
    }),
  );
  return { status: response.status, body: await response.json() };
}

const redemptionsOf = async (id: string) =>
  (await rowWhere("discount_codes", "redemptions", "id", id)).redemptions;

const ordersCount = () => rowCount("orders");

describe("a discount code at checkout", () => {
  it("takes its part off the creator's items only; the shares are computed on the discounted price; one use is counted when paid", async () => {
    const dana = await createTestUser();
    const eli = await createTestUser();
    const a = (await createListing(dana.user.id, { price: 10 })).listing;
    const b = (await createListing(dana.user.id, { price: 5 })).listing;
    const c = (await createListing(eli.user.id, { price: 8 })).listing;
    const code = await createDiscount(getDb(), {
      userId: dana.user.id,
      input: { code: "LAUNCH", percentOff: 20, amountOff: undefined },
      now: new Date(),
    });

    const started = await checkoutWith([a.id, b.id, c.id], " launch ");
    expect(started.status).toBe(200);
    const order = (await findOrderBySessionId(getDb(), started.body.sessionId))!;
    expect(order).toMatchObject({
      subtotal_cents: 2300,
      discount_cents: 300,
      tax_cents: 0,
      total_cents: 2000,
    });
    const items = await itemsOfOrder(getDb(), order.id);
    expect(
      items.map((item) => [item.price_cents, item.discount_cents, item.discount_code_id]),
    ).toEqual([
      [1000, 200, code.id],
      [500, 100, code.id],
      [800, 0, null],
    ]);
    expect(await redemptionsOf(code.id)).toBe(0);

    expect((await payTestCheckout(started.body.sessionId)).status).toBe(302);
    expect(await redemptionsOf(code.id)).toBe(1);
    const shares = await earningsOf(order.id);
    const byItem = new Map(shares.map((share) => [share.order_item_id, share]));
    // 85 % of $8.00, $4.00 and $8.00 (banker's rounding), the fee the rest of each.
    expect(
      items.map((item) => [
        byItem.get(item.id)!.amount_cents,
        byItem.get(item.id)!.platform_fee_cents,
      ]),
    ).toEqual([
      [680, 120],
      [340, 60],
      [680, 120],
    ]);
    const status = await (await paymentStatusOf(started.body.sessionId)).json();
    expect(status).toMatchObject({ subtotal: 23, discount: 3, tax: 0, total: 20 });

    // Paying again (a replayed return) counts nothing more.
    await fulfillOrder(getDb(), order.id, {}, new Date());
    expect(await redemptionsOf(code.id)).toBe(1);
  });

  it("refuses a code that takes nothing off with a sentence, creating no order", async () => {
    const dana = await createTestUser();
    const eli = await createTestUser();
    const mine = (await createListing(dana.user.id, { price: 4 })).listing;
    await createDiscount(getDb(), {
      userId: eli.user.id,
      input: { code: "ELIONLY", percentOff: 10, amountOff: undefined },
      now: new Date(),
    });
    await createDiscount(getDb(), {
      userId: dana.user.id,
      input: { code: "TOOBIG", amountOff: 5 },
      now: new Date(),
    });
    const before = await ordersCount();
    for (const [code, message] of [
      ["NOSUCH", "The discount code NOSUCH does not exist."],
      [
        "elionly",
        "The discount code ELIONLY is another creator's: it takes money off only their images, and none is in your cart.",
      ],
      [
        "TOOBIG",
        "The discount code TOOBIG takes off $5.00, more than the $4.00 of the images it applies to.",
      ],
    ] as const) {
      const refused = await checkoutWith([mine.id], code);
      expect([refused.status, refused.body.message], code).toEqual([400, message]);
    }
    for (const wrong of [42, true, {}, ["A"], "x".repeat(65)]) {
      const refused = await checkoutWith([mine.id], wrong);
      expect(refused.status, JSON.stringify(wrong)).toBe(400);
    }
    expect(await ordersCount()).toBe(before);
    // An empty code is no code.
    expect((await checkoutWith([mine.id], "")).status).toBe(200);
  });

  it("refunds at once, once, a payment whose code another order used up first", async () => {
    const dana = await createTestUser();
    const listing = (await createListing(dana.user.id, { price: 10 })).listing;
    const code = await createDiscount(getDb(), {
      userId: dana.user.id,
      input: { code: "ONCE", amountOff: 2, maxRedemptions: 1 },
      now: new Date(),
    });
    const first = await checkoutWith([listing.id], "ONCE");
    const second = await checkoutWith([listing.id], "ONCE");
    expect([first.status, second.status]).toEqual([200, 200]);
    expect((await payTestCheckout(first.body.sessionId)).status).toBe(302);
    // The code is used up now: a new checkout with it is refused.
    expect((await checkoutWith([listing.id], "ONCE")).body.message).toBe(
      "The discount code ONCE has been used up.",
    );
    const late = (await findOrderBySessionId(getDb(), second.body.sessionId))!;
    const outcome = await fulfillOrder(getDb(), late.id, {}, new Date());
    expect(outcome.outcome).toBe("refunded-code-used-up");
    const refunded = (await findOrderBySessionId(getDb(), second.body.sessionId))!;
    expect(refunded).toMatchObject({
      status: "refunded",
      refunded_cents: 800,
      refund_reason: CODE_USED_UP_REFUND_REASON,
    });
    expect(await redemptionsOf(code.id)).toBe(1);
    const shares = await earningsOf(late.id);
    expect(shares.every((share) => share.creator_reversed_cents === share.amount_cents)).toBe(true);
    expect(await fulfillOrder(getDb(), late.id, {}, new Date())).toMatchObject({
      outcome: "already-paid",
    });
  });
});

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onPostgres)("the last use of a code paid for twice at once (PostgreSQL)", () => {
  it("lets exactly one of two (and of eight) racing payments use it and refunds each other once", async () => {
    await withTwoProcesses(async (processes) => {
      for (const buyers of [2, 8]) {
        const creator = await createTestUser();
        const { listing } = await createListing(creator.user.id, { price: 20 });
        const code = await createDiscount(getDb(), {
          userId: creator.user.id,
          input: { code: `LAST${buyers}`, percentOff: 50, amountOff: undefined, maxRedemptions: 1 },
          now: new Date(),
        });
        const orders = await Promise.all(
          Array.from({ length: buyers }, (_, index) =>
            createPendingOrder(getDb(), {
              provider: "test",
              customer: { name: "Racer", email: `racer${index}@example.com` },
              listingIds: [listing.id],
              discountCode: `LAST${buyers}`,
              now: new Date(),
            }),
          ),
        );
        expect(await fulfilAtOnce(processes, orders)).toEqual([
          "fulfilled",
          ...Array.from({ length: buyers - 1 }, () => "refunded-code-used-up"),
        ]);
        expect(await redemptionsOf(code.id)).toBe(1);
        const rows = await orderStatuses(orders);
        for (const row of rows.filter((row) => row.status !== "paid"))
          expect(row).toMatchObject({ status: "refunded", refunded_cents: 1000 });
        const refundJobs = await queuedRefundPayloads();
        for (const row of rows)
          expect(refundJobs.filter((job) => job.payload.includes(row.id))).toHaveLength(
            row.status === "paid" ? 0 : 1,
          );
      }
    });
  });
});

describe("a discount in the creator's sales CSV", () => {
  it("shows what codes took off, and gross - discount - refunded = share + fee", async () => {
    const dana = await createTestUser();
    const listing = (await createListing(dana.user.id, { price: 10 })).listing;
    await createDiscount(getDb(), {
      userId: dana.user.id,
      input: { code: "CSV25", percentOff: 25, amountOff: undefined },
      now: new Date(),
    });
    const started = await checkoutWith([listing.id], "CSV25");
    expect((await payTestCheckout(started.body.sessionId)).status).toBe(302);
    const [row] = await monthlySalesOf(getDb(), dana.user.id);
    expect(row).toMatchObject({ grossCents: 1000, discountCents: 250, refundedCents: 0 });
    expect(row.creatorShareCents + row.platformFeeCents).toBe(750);
  });
});
