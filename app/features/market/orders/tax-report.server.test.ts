import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { TestCheckoutProvider } from "~/infra/payments/test-checkout.server";
import { payTestOrder, startCheckout } from "~/features/market/checkout/checkout.server";
import { findOrderBySessionId } from "~/features/market/orders/orders.server";
import { recordRefund } from "~/features/market/orders/refunds.server";
import {
  monthlyTaxRows,
  TAX_CSV_COLUMNS,
  taxCsv,
} from "~/features/market/orders/tax-report.server";
import { loader as taxCsvScreen } from "~/routes/_admin+/admin_.tax[.]csv";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import type { CustomerInfo } from "~/features/market/checkout/checkout-schema";

/** A sale in the test checkout with TAX=on (a US platform), paid at `paidAt`: its order id. */
async function taxedSale(price: number, buyer: Partial<CustomerInfo>, paidAt: Date) {
  const db = getDb();
  const creator = await createTestUser();
  const { listing } = await createListing(creator.user.id, { price });
  const started = await startCheckout(db, new TestCheckoutProvider(), {
    listingIds: [listing.id],
    customer: { name: "Buyer", email: "buyer@example.com", ...buyer },
    origin: "http://localhost:3000",
    now: paidAt,
    tax: { enabled: true, platformCountry: "US" },
  });
  await payTestOrder(db, (await findOrderBySessionId(db, started.sessionId))!, paidAt);
  return started.orderId;
}

describe("the admin's sales and tax per country and month", () => {
  it("sums each month's sales, reverse-charged sales, tax and refunds per buyer's country", async () => {
    const march = new Date("2031-03-10T12:00:00.000Z");
    const april = new Date("2031-04-02T12:00:00.000Z");
    const refunded = await taxedSale(10, { country: "DE" }, march);
    await taxedSale(25, { country: "DE" }, march);
    await taxedSale(20, { country: "FR", vatNumber: "FR40303265045" }, march);
    await taxedSale(10, { country: "US" }, march);
    await taxedSale(5, {}, march);
    await taxedSale(10, { country: "DE" }, april);
    await getDb()
      .transaction()
      .execute((trx) =>
        recordRefund(trx, refunded, { refundedTotalCents: 1190, reason: "Asked", now: march }),
      );

    const rows = (await monthlyTaxRows(getDb())).filter((row) => row.month.startsWith("2031-"));
    const base = { currency: "USD", test: true, refundedSalesCents: 0, refundedTaxCents: 0 };
    expect(rows).toEqual([
      {
        ...base,
        month: "2031-03",
        country: "",
        orders: 1,
        salesCents: 500,
        reverseChargeSalesCents: 0,
        taxCents: 0,
        totalCents: 500,
      },
      {
        ...base,
        month: "2031-03",
        country: "DE",
        orders: 2,
        salesCents: 3500,
        reverseChargeSalesCents: 0,
        taxCents: 665,
        totalCents: 4165,
        refundedSalesCents: 1000,
        refundedTaxCents: 190,
      },
      {
        ...base,
        month: "2031-03",
        country: "FR",
        orders: 1,
        salesCents: 2000,
        reverseChargeSalesCents: 2000,
        taxCents: 0,
        totalCents: 2000,
      },
      {
        ...base,
        month: "2031-03",
        country: "US",
        orders: 1,
        salesCents: 1000,
        reverseChargeSalesCents: 0,
        taxCents: 0,
        totalCents: 1000,
      },
      {
        ...base,
        month: "2031-04",
        country: "DE",
        orders: 1,
        salesCents: 1000,
        reverseChargeSalesCents: 0,
        taxCents: 190,
        totalCents: 1190,
      },
    ]);
    const lines = taxCsv(rows.slice(1, 2)).split("\r\n");
    expect(lines[0]).toBe(TAX_CSV_COLUMNS.map((name) => `"${name}"`).join(","));
    expect(lines[1]).toBe('"2031-03","DE","USD","yes",2,35.00,0.00,6.65,41.65,10.00,1.90');
  });

  it("is a plain GET download for the admin only: signed out to sign-in, another user 403", async () => {
    const admin = await createTestAdmin();
    const other = await createTestUser();
    const signedOut = await callRoute(taxCsvScreen, makeRequest("/admin/tax.csv"));
    expect(signedOut.status).toBe(302);
    const refused = await callRoute(
      taxCsvScreen,
      makeRequest("/admin/tax.csv", { cookie: other.cookie }),
    ).catch((error: unknown) => error as Response);
    expect(refused.status).toBe(403);
    const screen = await callRoute(
      taxCsvScreen,
      makeRequest("/admin/tax.csv", { cookie: admin.cookie }),
    );
    expect(screen.status).toBe(200);
    expect(screen.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(screen.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="selfie-studio-tax-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect((await screen.text()).split("\r\n")[0]).toBe(
      TAX_CSV_COLUMNS.map((name) => `"${name}"`).join(","),
    );
  });
});
