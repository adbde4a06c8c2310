import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { payTestCheckout } from "#tests/setup/test-checkout";
import { createDiscount } from "~/features/market/discounts/discounts.server";
import { findOrderBySessionId } from "~/features/market/orders/orders.server";
import { recordRefund } from "~/features/market/orders/refunds.server";
import { creatorAnalytics } from "~/features/market/analytics/analytics.server";

const { action: createSessionApi } = apiRoute("/api/create-checkout-session");

async function buyWith(listingIds: string[], discountCode?: string) {
  const response = await callRoute(
    createSessionApi,
    makeRequest("/api/create-checkout-session", {
      json: {
        cartItems: listingIds.map((imageId) => ({ imageId })),
        customerInfo: { name: "Bea Buyer", email: "bea@example.com" },
        ...(discountCode ? { discountCode } : {}),
      },
    }),
  );
  expect(response.status).toBe(200);
  const { sessionId } = await response.json();
  expect((await payTestCheckout(sessionId)).status).toBe(302);
  return (await findOrderBySessionId(getDb(), sessionId))!.id;
}

describe("revenue per discount code in the creator's analytics", () => {
  it("counts each code's paid orders, what it took off, the revenue after it less refunds and the creator's share; no one else's codes", async () => {
    const dana = await createTestUser();
    const eli = await createTestUser();
    const a = (await createListing(dana.user.id, { price: 10 })).listing;
    const b = (await createListing(dana.user.id, { price: 5 })).listing;
    const theirs = (await createListing(eli.user.id, { price: 8 })).listing;
    const now = new Date();
    const launch = await createDiscount(getDb(), {
      userId: dana.user.id,
      input: { code: "LAUNCH", percentOff: 20, amountOff: undefined },
      now,
    });
    await createDiscount(getDb(), {
      userId: dana.user.id,
      input: { code: "FIVE", amountOff: 5 },
      now,
    });
    await createDiscount(getDb(), {
      userId: eli.user.id,
      input: { code: "ELI", percentOff: 50, amountOff: undefined },
      now,
    });

    // LAUNCH: $15 of Dana's less 20 % ($3), with another creator's item in the order.
    await buyWith([a.id, b.id, theirs.id], "LAUNCH");
    // LAUNCH again on $10 less $2, then refunded in full: no order, no revenue, no discount.
    const refunded = await buyWith([a.id], "LAUNCH");
    await getDb()
      .transaction()
      .execute((trx) =>
        recordRefund(trx, refunded, {
          refundedTotalCents: 800,
          reason: "Asked for",
          now: new Date(),
          tellCreators: false,
        }),
      );
    // FIVE: $5 off $10; ELI on Eli's item only; a sale without a code.
    await buyWith([a.id], "FIVE");
    await buyWith([theirs.id], "ELI");
    await buyWith([b.id]);

    const report = await creatorAnalytics(getDb(), dana.user.id, 7, new Date(), {
      includeTestSales: true,
    });
    // Shares are 85 % of the discounted price (the test checkout's split).
    expect(report.discountCodes).toEqual([
      {
        discountCodeId: launch.id,
        code: "LAUNCH",
        orders: 1,
        revenue: "12",
        discount: "3",
        earnings: "10.20",
      },
      {
        discountCodeId: expect.any(String),
        code: "FIVE",
        orders: 1,
        revenue: "5",
        discount: "5",
        earnings: "4.25",
      },
    ]);
    // A production server's analytics leave test-checkout sales out, codes too.
    const live = await creatorAnalytics(getDb(), dana.user.id, 7, new Date(), {
      includeTestSales: false,
    });
    expect(live.discountCodes).toEqual([
      expect.objectContaining({ code: "FIVE", orders: 0, revenue: "0" }),
      expect.objectContaining({ code: "LAUNCH", orders: 0, revenue: "0" }),
    ]);
  });
});
