import { describe, expect, it, vi } from "vitest";
import { getDb } from "~/infra/db.server";
import { TestCheckoutProvider } from "~/infra/payments/test-checkout.server";
import { loader as testCheckoutPage } from "~/routes/_market+/test-checkout.$sessionId";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import {
  earningsOf,
  openTestCheckout,
  paymentStatusOf,
  payTestCheckout,
} from "#tests/setup/test-checkout";
import { queuedMailTo } from "#tests/setup/mail-queue";
import { apiRoute } from "#tests/setup/api-routes";
import { findOrderBySessionId } from "~/features/market/orders/orders.server";
import { payTestOrder, startCheckout } from "~/features/market/checkout/checkout.server";
import { refundPaidOrder } from "~/features/market/orders/order-refund.server";
import { SUPER_ADMIN_ID } from "~/lib/accounts";
import { testCheckoutTax } from "~/features/market/checkout/checkout-tax";
import { UNKNOWN_COUNTRY } from "~/features/market/checkout/checkout-schema";
import { MALFORMED_VAT_NUMBER } from "~/lib/vat-numbers";

// This server charges tax (TAX=on); its platform is in the US (STRIPE_PLATFORM_COUNTRY's default);
// it has a public address, so receipts are mailed.
vi.hoisted(() => {
  process.env.TAX = "on";
  process.env.PUBLIC_URL = "http://localhost:3000";
});

const { action: createSessionApi } = apiRoute("/api/create-checkout-session");

/** A new creator's listing at `price` dollars. */
async function listingAt(price: number) {
  const creator = await createTestUser();
  return (await createListing(creator.user.id, { price })).listing;
}

async function orderOf(sessionId: string) {
  return (await findOrderBySessionId(getDb(), sessionId))!;
}

describe("tax at the built-in test checkout (TAX=on)", () => {
  it("charges a consumer in Germany 19 % VAT on top of the price, shown before paying, on the receipt and in the payment status", async () => {
    const listing = await listingAt(10);
    const email = `de-${listing.id}@example.com`.toLowerCase();
    const sessionId = await openTestCheckout([listing.id], {
      name: "Dana",
      email,
      country: "de",
    });
    const order = await orderOf(sessionId);
    expect(order).toMatchObject({
      subtotal_cents: 1000,
      discount_cents: 0,
      tax_cents: 190,
      tax_rate_bps: 1900,
      total_cents: 1190,
      country: "DE",
      vat_number: null,
    });

    const page = await callRoute(testCheckoutPage, makeRequest(`/test-checkout/${sessionId}`), {
      sessionId,
    });
    expect(await page.json()).toMatchObject({
      subtotalCents: 1000,
      taxCents: 190,
      totalCents: 1190,
      taxLabel: "VAT 19% (Germany)",
      reverseChargeNote: null,
    });

    expect((await payTestCheckout(sessionId)).status).toBe(302);
    // The creator's share and the fee are of the price, never of the tax.
    const shares = await earningsOf(order.id);
    expect(shares.reduce((sum, row) => sum + row.amount_cents + row.platform_fee_cents, 0)).toBe(
      1000,
    );

    const status = await (await paymentStatusOf(sessionId)).json();
    expect(status).toMatchObject({
      success: true,
      subtotal: 10,
      discount: 0,
      tax: 1.9,
      total: 11.9,
      currency: "usd",
      country: "DE",
      taxRate: 19,
      reverseCharge: false,
    });

    const [receipt] = await queuedMailTo(email);
    expect(receipt.text).toContain("Subtotal: $10.00");
    expect(receipt.text).toContain("VAT 19% (Germany): $1.90");
    expect(receipt.text).toContain("Total: $11.90");
    expect(receipt.html).toContain("VAT 19% (Germany)");
  });

  it("reverse-charges a business with a well-formed VAT number of its EU country: no VAT, and the receipt says so", async () => {
    const listing = await listingAt(20);
    const email = `fr-${listing.id}@example.com`.toLowerCase();
    const sessionId = await openTestCheckout([listing.id], {
      name: "Fanny",
      email,
      company: "Fanny SARL",
      country: "FR",
      vatNumber: "fr 40 303 265 045",
    });
    expect(await orderOf(sessionId)).toMatchObject({
      subtotal_cents: 2000,
      tax_cents: 0,
      tax_rate_bps: null,
      total_cents: 2000,
      country: "FR",
      vat_number: "FR40303265045",
    });
    const page = await callRoute(testCheckoutPage, makeRequest(`/test-checkout/${sessionId}`), {
      sessionId,
    });
    expect((await page.json()).reverseChargeNote).toMatch(/^Reverse charge/);
    expect((await payTestCheckout(sessionId)).status).toBe(302);
    const status = await (await paymentStatusOf(sessionId)).json();
    expect(status).toMatchObject({ tax: 0, total: 20, country: "FR", reverseCharge: true });
    const [receipt] = await queuedMailTo(email);
    expect(receipt.text).toContain("Reverse charge");
    expect(receipt.text).toContain("FR40303265045");
  });

  it("charges VAT to a business of the platform's own country despite its VAT number (no reverse charge at home)", () => {
    expect(
      testCheckoutTax({
        enabled: true,
        taxableCents: 1000,
        country: "DE",
        vatNumber: "DE123456789",
        platformCountry: "DE",
      }),
    ).toEqual({ taxCents: 190, rateBps: 1900, country: "DE", vatNumber: null });
  });

  it("charges none to a buyer in the US or one who gives no country", async () => {
    const listing = await listingAt(10);
    const us = await openTestCheckout([listing.id], {
      name: "Uma",
      email: "uma@example.com",
      country: "US",
    });
    expect(await orderOf(us)).toMatchObject({
      tax_cents: 0,
      total_cents: 1000,
      subtotal_cents: 1000,
      country: "US",
    });
    const nowhere = await openTestCheckout([listing.id], { name: "Nia", email: "nia@example.com" });
    expect(await orderOf(nowhere)).toMatchObject({
      tax_cents: 0,
      total_cents: 1000,
      country: null,
    });
    const page = await callRoute(testCheckoutPage, makeRequest(`/test-checkout/${nowhere}`), {
      sessionId: nowhere,
    });
    expect((await page.json()).taxLabel).toBeNull();
  });

  it("charges none with TAX=off, whatever the country", async () => {
    const listing = await listingAt(10);
    const db = getDb();
    const started = await startCheckout(db, new TestCheckoutProvider(), {
      listingIds: [listing.id],
      customer: { name: "Dana", email: "dana-off@example.com", country: "DE" },
      origin: "http://localhost:3000",
      now: new Date(),
      tax: { enabled: false, platformCountry: "US" },
    });
    expect(await orderOf(started.sessionId)).toMatchObject({
      tax_cents: 0,
      total_cents: 1000,
      country: "DE",
    });
  });

  it("gives the tax back with a full refund, and the shares and fee of the price", async () => {
    const listing = await listingAt(25);
    const db = getDb();
    const started = await startCheckout(db, new TestCheckoutProvider(), {
      listingIds: [listing.id],
      customer: { name: "Ines", email: "ines@example.com", country: "IE" },
      origin: "http://localhost:3000",
      now: new Date(),
      tax: { enabled: true, platformCountry: "US" },
    });
    await payTestOrder(db, await orderOf(started.sessionId), new Date());
    const view = await refundPaidOrder(
      { db, now: new Date(), providerOf: () => new TestCheckoutProvider() },
      { orderId: started.orderId, reason: "Asked", actorId: SUPER_ADMIN_ID },
    );
    expect(view.refunded).toBe("30.75");
    const order = await orderOf(started.sessionId);
    expect(order).toMatchObject({
      status: "refunded",
      tax_cents: 575,
      total_cents: 3075,
      refunded_cents: 3075,
    });
    const shares = await earningsOf(started.orderId);
    expect(
      shares.reduce(
        (sum, row) => sum + row.creator_reversed_cents + row.platform_reversed_cents,
        0,
      ),
    ).toBe(2500);
    expect(shares.every((row) => row.status === "reversed")).toBe(true);
  });

  it("refuses a country or VAT number that is not one with a clear 400, and starts nothing", async () => {
    const listing = await listingAt(10);
    const before = await getDb().selectFrom("orders").select("id").execute();
    const cases: [Record<string, unknown>, string][] = [
      [{ country: "XX" }, UNKNOWN_COUNTRY],
      [{ country: "Germany" }, UNKNOWN_COUNTRY],
      [{ country: 49 }, UNKNOWN_COUNTRY],
      [{ country: "DE", vatNumber: "DE12345" }, MALFORMED_VAT_NUMBER],
      [{ country: "DE", vatNumber: "123456789" }, MALFORMED_VAT_NUMBER],
      [
        { country: "FR", vatNumber: "DE123456789" },
        "This VAT number is from Germany, but the country chosen is France.",
      ],
      [{ vatNumber: "DE123456789" }, "Choose your country to go with your VAT number (Germany)."],
    ];
    for (const [extra, message] of cases) {
      const response = await callRoute(
        createSessionApi,
        makeRequest("/api/create-checkout-session", {
          json: {
            cartItems: [{ imageId: listing.id }],
            customerInfo: { name: "Bad", email: "bad@example.com", ...extra },
          },
        }),
      );
      expect(response.status, JSON.stringify(extra)).toBe(400);
      expect((await response.json()).message, JSON.stringify(extra)).toContain(message);
    }
    expect(await getDb().selectFrom("orders").select("id").execute()).toHaveLength(before.length);
  });
});
