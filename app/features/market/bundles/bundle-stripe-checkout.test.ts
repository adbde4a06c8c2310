import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { checkoutEvent, lineItemsOf, signPayload, stripeMock } from "#tests/mocks/stripe";
import { createCheckoutSession, postStripeWebhook, setUpStripeMock } from "#tests/setup/stripe";
import { findOrderBySessionId, itemsOfOrder } from "~/features/market/orders/orders.server";
import { createBundle } from "~/features/market/bundles/bundles.server";
import { downloadGrantsOf, earningsOf } from "#tests/setup/test-checkout";

const WEBHOOK_SECRET = "whsec_test_secret_for_selfie_studio";
setUpStripeMock({ key: "sk_test_selfie_studio", webhookSecret: WEBHOOK_SECRET });

const buyer = { name: "Sam Stripe", email: "sam@example.com" };

describe("a bundle at Stripe Checkout (the real stripe library against msw)", () => {
  it("is one line at the bundle's price beside a listing's own line; paid, it delivers each item with its proportional share", async () => {
    const creator = await createTestUser();
    const items = [];
    for (const price of [7, 2, 1])
      items.push((await createListing(creator.user.id, { price, title: `Look ${price}` })).listing);
    const single = (await createListing(creator.user.id, { price: 25, title: "Alone" })).listing;
    const bundle = await createBundle(getDb(), {
      userId: creator.user.id,
      title: "Three looks",
      listingIds: items.map((item) => item.id),
      priceCents: 999,
      now: new Date(),
    });
    const response = await createCheckoutSession(
      [{ imageId: single.id }, { bundleId: bundle.id }],
      buyer,
    );
    expect(response.status).toBe(200);
    const { sessionId } = await response.json();
    const create = stripeMock.requests.find((request) => request.method === "POST")!;
    expect(lineItemsOf(create.form)).toEqual([
      { amount: 2500, quantity: 1, name: "Alone", currency: "usd" },
      { amount: 999, quantity: 1, name: "Three looks", currency: "usd" },
    ]);
    expect(create.form.get("line_items[1][price_data][product_data][description]")).toBe(
      "A bundle of 3 images. Standard commercial license, full-resolution downloads.",
    );
    const order = (await findOrderBySessionId(getDb(), sessionId))!;
    expect(order.total_cents).toBe(3499);

    const payload = checkoutEvent("checkout.session.completed", stripeMock.complete(sessionId));
    expect((await postStripeWebhook(payload, signPayload(payload, WEBHOOK_SECRET))).status).toBe(
      200,
    );
    const orderItems = await itemsOfOrder(getDb(), order.id);
    expect(orderItems.map((item) => [item.price_cents, item.bundle_id])).toEqual([
      [2500, null],
      [699, bundle.id],
      [200, bundle.id],
      [100, bundle.id],
    ]);
    const earnings = await earningsOf(order.id);
    expect(earnings.reduce((sum, e) => sum + e.amount_cents + e.platform_fee_cents, 0)).toBe(3499);
    expect(await downloadGrantsOf(order.id)).toHaveLength(4);
  });
});
