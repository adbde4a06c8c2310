import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { fulfillOrder } from "~/features/market/orders/fulfillment.server";
import { renderSaleNoticeMail } from "~/features/market/orders/sale-notice-mail.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { addressesOf, readEml } from "#tests/setup/mail";
import { deliverQueuedMail, queuedMailTo } from "#tests/setup/mail-queue";
import { checkoutSessionHash } from "~/features/market/orders/orders.server";
import { openTestCheckout, payTestCheckout } from "#tests/setup/test-checkout";
import { firstRowWhere, rowWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

/** Starts a purchase of the listings in the built-in test checkout; answers the session id. */
async function startPurchase(email: string, listingIds: string[]): Promise<string> {
  return openTestCheckout(listingIds, { name: "Bea Buyer", email }, { licenseType: "standard" });
}

async function pay(sessionId: string) {
  expect((await payTestCheckout(sessionId)).status).toBe(302);
}

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

describe("the sale notice", () => {
  it("goes once to each creator whose listing sold, with the item and the share the ledger recorded", async () => {
    const cleo = await createTestUser({ firstName: "Cleo" });
    const dan = await createTestUser({ firstName: "Dan" });
    const a = await createListing(cleo.user.id, {
      title: "Sunset Portrait",
      style: "anime",
      price: 25,
    });
    const b = await createListing(dan.user.id, {
      title: "Boardroom",
      style: "professional",
      price: "19.99",
    });
    const buyerEmail = "sale-notice-buyer@example.com";
    const sessionId = await startPurchase(buyerEmail, [a.listing.id, b.listing.id]);
    await pay(sessionId);
    const order = await rowWhere(
      "orders",
      "*",
      "checkout_session_hash",
      checkoutSessionHash(sessionId),
    );

    // Paying again, and fulfilling again (a retried webhook or return), queue nothing more.
    await payTestCheckout(sessionId);
    expect((await fulfillOrder(getDb(), order.id, {}, new Date())).outcome).toBe("already-paid");
    expect(await queuedMailTo(cleo.user.email)).toHaveLength(1);
    expect(await queuedMailTo(dan.user.email)).toHaveLength(1);
    expect(await queuedMailTo(buyerEmail)).toHaveLength(1);

    const ledger = await selectWhere(
      "earnings",
      ["listing_id", "amount_cents", "test_mode"],
      "order_id",
      order.id,
    );
    const shareOf = (listingId: string) =>
      ledger.find((row) => row.listing_id === listingId)!.amount_cents;
    expect(shareOf(a.listing.id)).toBe(2125);
    expect(shareOf(b.listing.id)).toBe(1699);

    const mails = await Promise.all((await deliverQueuedMail()).map(readEml));
    expect(mails).toHaveLength(3);
    const to = (email: string) => mails.filter((mail) => addressesOf(mail.to).includes(email));
    const [cleoMail] = to(cleo.user.email);
    const [danMail] = to(dan.user.email);
    expect(to(cleo.user.email)).toHaveLength(1);
    expect(to(dan.user.email)).toHaveLength(1);

    expect(cleoMail.subject).toBe("You made a sale on Selfie Studio");
    expect(cleoMail.text).toContain("Hello Cleo,");
    expect(cleoMail.text).toContain(
      "Sunset Portrait (Anime style): sold for $25.00, your share $21.25",
    );
    expect(cleoMail.text).not.toContain("Boardroom");
    expect(cleoMail.text).toContain("Your share: $21.25");
    // The item's sale reference, not the buyer's order id.
    const cleoItem = await getDb()
      .selectFrom("order_items")
      .select("id")
      .where("order_id", "=", order.id)
      .where("listing_id", "=", a.listing.id)
      .executeTakeFirstOrThrow();
    expect(cleoMail.text).toContain(`(sale ${cleoItem.id})`);
    expect(cleoMail.text).not.toContain(order.id);
    expect(cleoMail.text).toContain("http://localhost:3000/dashboard");
    expect(cleoMail.html).toContain('href="http://localhost:3000/dashboard"');
    expect(cleoMail.html).toContain('lang="en"');
    // A development server's test checkout: the notice says no money moved.
    expect(cleoMail.text).toContain("TEST SALE");
    expect(cleoMail.text).toContain("No money moved");

    expect(danMail.text).toContain(
      "Boardroom (Professional style): sold for $19.99, your share $16.99",
    );
    expect(danMail.text).not.toContain("Sunset Portrait");
  });

  it("goes to nobody when a seller was banned before the payment: the order is refunded at once, not sold", async () => {
    const cleo = await createTestUser({ firstName: "Cleo" });
    const banned = await createTestUser({ firstName: "Barry" });
    const a = await createListing(cleo.user.id, { title: "Sunset Portrait", price: 25 });
    const b = await createListing(banned.user.id, { title: "Banned Work", price: 10 });
    const sessionId = await startPurchase("sale-notice-banned@example.com", [
      a.listing.id,
      b.listing.id,
    ]);
    // Banned after the checkout began, before it was paid.
    await updateWhere("users", { banned: 1 }, "id", banned.user.id);
    await pay(sessionId);

    expect(await queuedMailTo(cleo.user.email)).toHaveLength(0);
    expect(await queuedMailTo(banned.user.email)).toHaveLength(0);
    expect(
      await firstRowWhere("orders", "status", "customer_email", "sale-notice-banned@example.com"),
    ).toEqual({ status: "refunded" });
  });

  it("escapes every value in its HTML part, and on a production server says a test sale is not counted", () => {
    const mail = renderSaleNoticeMail({
      creatorName: "Cleo <script>",
      paidAt: "2026-11-24T12:00:00.000Z",
      items: [
        {
          saleReference: "sale-1",
          title: 'Sunset <b>"Portrait"</b> & co',
          style: "anime",
          priceCents: 2500,
          shareCents: 2125,
        },
      ],
      testMode: true,
      testSalesExcluded: true,
      dashboardUrl: "http://localhost:3000/dashboard?a=1&b=<2>",
    });
    expect(mail.html).toContain("Cleo &lt;script&gt;");
    expect(mail.html).toContain("Sunset &lt;b&gt;&quot;Portrait&quot;&lt;/b&gt; &amp; co");
    expect(mail.html).toContain("http://localhost:3000/dashboard?a=1&amp;b=&lt;2&gt;");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<b>");
    expect(mail.text).toContain(
      'Sunset <b>"Portrait"</b> & co (Anime style): sold for $25.00, your share $21.25 (sale sale-1)',
    );
    expect(mail.text).toContain("No money moved, and this sale is not counted in your earnings.");
    expect(mail.html).toContain("No money moved, and this sale is not counted in your earnings.");

    const real = renderSaleNoticeMail({
      creatorName: "Cleo",
      paidAt: "2026-11-24T12:00:00.000Z",
      items: [
        { saleReference: "sale-2", title: "A", style: "anime", priceCents: 100, shareCents: 85 },
      ],
      testMode: false,
      testSalesExcluded: true,
      dashboardUrl: "https://selfie.example/dashboard",
    });
    expect(`${real.text}${real.html}`).not.toMatch(/test/i);
  });
});
