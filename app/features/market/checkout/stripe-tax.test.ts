import { describe, expect, it } from "vitest";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { checkoutEvent, signPayload, stripeMock } from "#tests/mocks/stripe";
import { createCheckoutSession, postStripeWebhook, setUpStripeMock } from "#tests/setup/stripe";
import { checkoutSessionHash } from "~/features/market/orders/orders.server";
import { apiRoute } from "#tests/setup/api-routes";
import { earningsOf } from "#tests/setup/test-checkout";
import { DIGITAL_IMAGE_TAX_CODE } from "~/infra/payments/stripe-checkout.server";
import { rowWhere } from "#tests/setup/rows-where";

/** Stripe Tax with TAX=on: the real stripe library against msw at Stripe's HTTP edge. */

const { loader: paymentStatusApi } = apiRoute("/api/payment-status/{sessionId}");

const WEBHOOK_SECRET = "whsec_test_secret_for_selfie_tax";
setUpStripeMock({
  key: "sk_test_selfie_tax",
  webhookSecret: WEBHOOK_SECRET,
  env: { TAX: "on" },
});

async function listingAt(price: number) {
  const creator = await createTestUser();
  return (await createListing(creator.user.id, { price })).listing;
}

async function checkout(listingId: string) {
  const response = await createCheckoutSession([{ imageId: listingId }], {
    name: "Dieter",
    email: "dieter@example.com",
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { sessionId: string }).sessionId;
}

function orderOf(sessionId: string) {
  return rowWhere("orders", "*", "checkout_session_hash", checkoutSessionHash(sessionId));
}

async function statusOf(sessionId: string) {
  const response = await callRoute(
    paymentStatusApi,
    makeRequest(`/api/payment-status/${sessionId}`),
    { sessionId },
  );
  return response.json();
}

describe("Stripe Tax at Stripe Checkout (TAX=on)", () => {
  it("asks Stripe to compute the tax: automatic tax with the platform liable, the billing address required, business tax IDs, each line taxed on top of its price as a downloaded digital image", async () => {
    const listing = await listingAt(10);
    const sessionId = await checkout(listing.id);
    const form = stripeMock.requests.find((request) => request.method === "POST")!.form;
    expect(form.get("automatic_tax[enabled]")).toBe("true");
    expect(form.get("automatic_tax[liability][type]")).toBe("self");
    expect(form.get("billing_address_collection")).toBe("required");
    expect(form.get("tax_id_collection[enabled]")).toBe("true");
    expect(form.get("line_items[0][price_data][tax_behavior]")).toBe("exclusive");
    expect(form.get("line_items[0][price_data][product_data][tax_code]")).toBe(
      DIGITAL_IMAGE_TAX_CODE,
    );
    expect(DIGITAL_IMAGE_TAX_CODE).toBe("txcd_10501000");
    // Before the payment the order is the price: Stripe computes the tax on its page.
    expect(await orderOf(sessionId)).toMatchObject({
      subtotal_cents: 1000,
      tax_cents: 0,
      total_cents: 1000,
      status: "pending",
    });
  });

  it("records Stripe's tax, the total paid and the buyer's country when the webhook says the session is paid; the shares stay of the price", async () => {
    const listing = await listingAt(10);
    const sessionId = await checkout(listing.id);
    const session = stripeMock.complete(sessionId, "paid", { country: "DE", taxCents: 190 });
    expect(session.amount_total).toBe(1190);
    const payload = checkoutEvent("checkout.session.completed", session);
    const response = await postStripeWebhook(payload, signPayload(payload, WEBHOOK_SECRET));
    expect(response.status).toBe(200);
    const order = await orderOf(sessionId);
    expect(order).toMatchObject({
      status: "paid",
      subtotal_cents: 1000,
      discount_cents: 0,
      tax_cents: 190,
      tax_rate_bps: null,
      total_cents: 1190,
      country: "DE",
    });
    const shares = await earningsOf(order.id);
    expect(shares.reduce((sum, row) => sum + row.amount_cents + row.platform_fee_cents, 0)).toBe(
      1000,
    );
    expect(await statusOf(sessionId)).toMatchObject({
      success: true,
      subtotal: 10,
      discount: 0,
      tax: 1.9,
      total: 11.9,
      currency: "usd",
      country: "DE",
      reverseCharge: false,
    });
  });

  it("records the same when the buyer's return asks Stripe before any webhook", async () => {
    const listing = await listingAt(30);
    const sessionId = await checkout(listing.id);
    stripeMock.complete(sessionId, "paid", { country: "GB", taxCents: 600 });
    expect(await statusOf(sessionId)).toMatchObject({
      success: true,
      tax: 6,
      total: 36,
      country: "GB",
    });
  });

  it("does not fulfil a paid amount that is not the price plus Stripe's tax", async () => {
    const listing = await listingAt(10);
    const sessionId = await checkout(listing.id);
    const session = stripeMock.complete(sessionId, "paid", { country: "DE", taxCents: 190 });
    session.amount_total = 1000;
    const payload = checkoutEvent("checkout.session.completed", session);
    expect((await postStripeWebhook(payload, signPayload(payload, WEBHOOK_SECRET))).status).toBe(
      200,
    );
    expect(await orderOf(sessionId)).toMatchObject({
      status: "pending",
      tax_cents: 0,
      total_cents: 1000,
    });
  });
});
