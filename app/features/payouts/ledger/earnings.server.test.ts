import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { TestCheckoutProvider } from "~/infra/payments/test-checkout.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { platformStats } from "~/features/admin/stats.server";
import { findUserForAdmin, listUsersForAdmin } from "~/features/admin/users.server";
import { payTestOrder, startCheckout } from "~/features/market/checkout/checkout.server";
import { creatorStats } from "~/features/studio/workspace/creator-stats.server";
import { creatorEarnings, creatorTotals } from "~/features/payouts/ledger/earnings.server";
import { fulfillOrder } from "~/features/market/orders/fulfillment.server";
import { createPendingOrder, findOrderBySessionId } from "~/features/market/orders/orders.server";

const buyer = { name: "Bea Buyer", email: "bea@example.com" };

/** A sale in the built-in test checkout, paid the way its Pay button does. */
async function testCheckoutSale(listingId: string) {
  const db = getDb();
  const started = await startCheckout(db, new TestCheckoutProvider(), {
    listingIds: [listingId],
    customer: buyer,
    origin: "http://localhost:3000",
    now: new Date(),
  });
  await payTestOrder(db, (await findOrderBySessionId(db, started.sessionId))!, new Date());
  return started.orderId;
}

/** A sale paid through Stripe (the order is fulfilled as the webhook would). */
async function stripeSale(listingId: string) {
  const db = getDb();
  const { order } = await createPendingOrder(db, {
    provider: "stripe",
    customer: buyer,
    listingIds: [listingId],
    now: new Date(),
  });
  expect(
    (
      await fulfillOrder(
        db,
        order.id,
        { amountCents: order.total_cents, currency: "usd" },
        new Date(),
      )
    ).outcome,
  ).toBe("fulfilled");
  return order.id;
}

describe("test-checkout sales in the ledger's sums", () => {
  it("are marked test_mode and left out of every revenue and earnings sum unless the scope includes them", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const sold = await createListing(creator.user.id, { price: 20 });
    const demo = await createListing(creator.user.id, { price: 10 });
    const realOrder = await stripeSale(sold.listing.id);
    const testOrder = await testCheckoutSale(demo.listing.id);

    const ledger = await db
      .selectFrom("earnings")
      .select(["order_id", "test_mode", "amount_cents", "platform_fee_cents"])
      .execute();
    expect(ledger.find((row) => row.order_id === realOrder)).toMatchObject({
      test_mode: 0,
      amount_cents: 1700,
      platform_fee_cents: 300,
    });
    expect(ledger.find((row) => row.order_id === testOrder)).toMatchObject({
      test_mode: 1,
      amount_cents: 850,
      platform_fee_cents: 150,
    });

    const production = { includeTestSales: false };
    const demoServer = { includeTestSales: true };

    expect((await platformStats(db, production)).platformRevenue).toBe(3);
    expect((await platformStats(db, demoServer)).platformRevenue).toBe(4.5);

    expect(await creatorTotals(db, creator.user.id, production)).toMatchObject({
      earningsCents: 1700,
      sales: 1,
    });
    expect(await creatorTotals(db, creator.user.id, demoServer)).toMatchObject({
      earningsCents: 2550,
      sales: 2,
    });
    expect(await creatorStats(db, creator.user.id, production)).toMatchObject({
      totalSales: 1,
      totalEarnings: 17,
    });
    expect(await creatorStats(db, creator.user.id, demoServer)).toMatchObject({
      totalSales: 2,
      totalEarnings: 25.5,
    });

    // The creator's own list shows every sale, the test one labelled; only the total leaves it out.
    const mine = await creatorEarnings(db, creator.user.id, production);
    expect(mine.totalEarnings).toBe(17);
    expect(
      mine.records.map((record) => [record.listingId, record.amount, record.testMode]).sort(),
    ).toEqual(
      [
        [sold.listing.id, "17", false],
        [demo.listing.id, "8.50", true],
      ].sort(),
    );
    expect((await creatorEarnings(db, creator.user.id, demoServer)).totalEarnings).toBe(25.5);

    // The admin's user table.
    const listed = await listUsersForAdmin(db, { includeTestSales: false });
    expect(listed.find((user) => user.id === creator.user.id)?.earnings).toBe(17);
    expect((await findUserForAdmin(db, creator.user.id, production))?.earnings).toBe(17);
    expect((await findUserForAdmin(db, creator.user.id, demoServer))?.earnings).toBe(25.5);
  });
});
