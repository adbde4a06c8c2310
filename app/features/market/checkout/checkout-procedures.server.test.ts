import { describe, expect, it, vi } from "vitest";
import { getDb } from "~/infra/db.server";
import { TestCheckoutProvider } from "~/infra/payments/test-checkout.server";
import { attachCheckoutSession, createPendingOrder } from "~/features/market/orders/orders.server";
import { payTestOrder } from "~/features/market/checkout/checkout.server";
import {
  action as testCheckoutAction,
  loader as testCheckoutPage,
} from "~/routes/_market+/test-checkout.$sessionId";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { downloadGrantsOf, earningsOf } from "#tests/setup/test-checkout";
import { TEST_CHECKOUT_CLOSED } from "~/features/market/checkout/procedures.server";
import { rowWhere } from "#tests/setup/rows-where";

// This server takes real payments: Stripe is configured.
vi.hoisted(() => {
  process.env.STRIPE_SECRET_KEY = "sk_test_selfie_studio";
});

/** An order made in the built-in test checkout before Stripe was configured. */
async function leftoverTestOrder() {
  const db = getDb();
  const creator = await createTestUser();
  const { listing } = await createListing(creator.user.id);
  const { order } = await createPendingOrder(db, {
    provider: "test",
    customer: { name: "Bea Buyer", email: "bea@example.com" },
    listingIds: [listing.id],
    now: new Date(),
  });
  const session = await new TestCheckoutProvider().createCheckoutSession({
    orderId: order.id,
    customerEmail: order.customer_email,
    currency: order.currency,
    origin: "http://localhost:3000",
    items: [],
  });
  await attachCheckoutSession(db, order.id, session, new Date());
  return { order, sessionId: session.sessionId };
}

async function snapshot(orderId: string) {
  return {
    order: await rowWhere("orders", "*", "id", orderId),
    earnings: await earningsOf(orderId),
    grants: await downloadGrantsOf(orderId),
  };
}

describe("the test checkout once Stripe is configured", () => {
  it("refuses to pay or cancel a leftover test order, with a clear message, and changes nothing", async () => {
    const { order, sessionId } = await leftoverTestOrder();
    const before = await snapshot(order.id);

    const page = await callRoute(testCheckoutPage, makeRequest(`/test-checkout/${sessionId}`), {
      sessionId,
    });
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({
      status: "pending",
      closedReason: TEST_CHECKOUT_CLOSED,
    });

    for (const intent of ["pay", "cancel"]) {
      const response = await callRoute(
        testCheckoutAction,
        formRequest(`/test-checkout/${sessionId}`, { intent }),
        { sessionId },
      );
      expect(response.status, intent).toBe(409);
      expect((await response.json()).error[""], intent).toEqual([TEST_CHECKOUT_CLOSED]);
    }
    expect(await snapshot(order.id)).toEqual(before);
  });

  it("still shows a test order that was paid before as paid", async () => {
    const { order, sessionId } = await leftoverTestOrder();
    await payTestOrder(getDb(), (await snapshot(order.id)).order, new Date());
    const page = await callRoute(testCheckoutPage, makeRequest(`/test-checkout/${sessionId}`), {
      sessionId,
    });
    expect(await page.json()).toMatchObject({ status: "paid", closedReason: null });
  });
});
