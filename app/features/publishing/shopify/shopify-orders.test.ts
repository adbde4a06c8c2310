import crypto from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { forgetShopifyConnections, shopifyWebhookRequest } from "#tests/setup/shopify";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { newId } from "~/infra/ids.server";
import { invoke } from "~/infra/procedure.server";
import { plainContext } from "~/infra/call-context.server";
import { creatorBalance } from "~/features/payouts/ledger/balances.server";
import { creatorTotals } from "~/features/payouts/ledger/earnings.server";
import { integrationsScreen } from "~/features/publishing/integrations/procedures.server";
import { refundPaidOrder } from "~/features/market/orders/order-refund.server";
import { providerFor } from "~/infra/payments/select-provider.server";
import { callRoute } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { addressesOf, readEml } from "#tests/setup/mail";
import { deliverQueuedMail } from "#tests/setup/mail-queue";
import { apiRoute } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";

const webhook = apiRoute("/api/webhooks/shopify");

/**
 * A Shopify order for a published listing, end to end: orders/paid deliveries
 * signed as Shopify signs them (base64 HMAC-SHA256 of the raw body under the
 * app's client secret) through POST /api/webhooks/shopify, the payload in the
 * shape of Shopify's Order resource, and the receipt read back from the mail
 * the job worker wrote to the outbox.
 */

const SECRET = `shpss_${crypto.randomBytes(16).toString("hex")}`;
const SHOP = "order-store.myshopify.com";
const shopifyId = () => crypto.randomInt(1, 2 ** 47);

function deliver(body: string, headers: Record<string, string | null> = {}) {
  return callRoute(
    webhook.action,
    shopifyWebhookRequest(body, {
      topic: "orders/paid",
      shop: SHOP,
      secret: SECRET,
      headers: { "X-Shopify-Event-Id": crypto.randomUUID(), ...headers },
    }),
  );
}

beforeAll(() => {
  const restore = getConfig().SHOPIFY_CLIENT_SECRET;
  getConfig().SHOPIFY_CLIENT_SECRET = SECRET;
  return () => {
    getConfig().SHOPIFY_CLIENT_SECRET = restore;
  };
});
afterEach(() => forgetShopifyConnections());

/** A creator with a marketplace listing published as a product in SHOP: answers the product's numeric id. */
async function publishedListing() {
  const creator = await createTestUser();
  const { listing, stylized } = await createListing(creator.user.id, {
    title: "Shop Portrait",
    price: 12.5,
  });
  const productId = shopifyId();
  const stamp = new Date().toISOString();
  await getDb()
    .insertInto("listing_platforms")
    .values({
      id: newId(),
      user_id: creator.user.id,
      stylized_image_id: stylized.id,
      platform: "shopify",
      status: "live",
      url: `https://${SHOP}/products/shop-portrait`,
      title: "Shop Portrait",
      price_cents: 1250,
      external_id: `gid://shopify/Product/${productId}`,
      external_shop: SHOP,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
  return { creator, listing, productId };
}

/** An orders/paid payload as Shopify sends it (the fields relied on, and a few others). */
function paidOrder(
  lines: { productId: number | null; price: string; quantity?: number }[],
  buyer: { email?: string | null; contactEmail?: string | null; customerEmail?: string | null },
) {
  const id = shopifyId();
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: "#1001",
    currency: "USD",
    financial_status: "paid",
    email: buyer.email ?? null,
    contact_email: buyer.contactEmail ?? null,
    customer:
      buyer.customerEmail !== undefined
        ? { id: shopifyId(), email: buyer.customerEmail, first_name: "Bea", last_name: "Buyer" }
        : null,
    line_items: lines.map((line) => ({
      id: shopifyId(),
      admin_graphql_api_id: `gid://shopify/LineItem/${shopifyId()}`,
      product_id: line.productId,
      variant_id: line.productId ? shopifyId() : null,
      quantity: line.quantity ?? 1,
      price: line.price,
      price_set: {
        shop_money: { amount: line.price, currency_code: "USD" },
        presentment_money: { amount: line.price, currency_code: "USD" },
      },
      requires_shipping: false,
    })),
  };
}

const salesOf = (shopifyOrderId: number) =>
  rowsWhere("shopify_sales", "shopify_order_id", String(shopifyOrderId));

async function receiptsTo(email: string) {
  const mails = await Promise.all((await deliverQueuedMail()).map(readEml));
  return mails.filter((mail) => addressesOf(mail.to).includes(email));
}

describe("orders/paid: delivering what a creator's Shopify store sold", () => {
  it("mails the buyer a receipt with their library (download and licence) exactly once per line, however often the order is delivered, and records the sale made elsewhere", async () => {
    const { creator, listing, productId } = await publishedListing();
    const buyer = `bea-${crypto.randomBytes(4).toString("hex")}@example.com`;
    const order = paidOrder(
      [
        { productId, price: "12.50" },
        { productId: shopifyId(), price: "40.00" }, // another product of the store, not ours
        { productId: null, price: "5.00" }, // a custom line
      ],
      { email: buyer, contactEmail: buyer, customerEmail: buyer },
    );
    const body = JSON.stringify(order);
    const webhookId = crypto.randomUUID();
    const first = await deliver(body, { "X-Shopify-Webhook-Id": webhookId });
    expect(first.status).toBe(200);
    const answer = (await first.json()) as { outcome: string };
    expect(answer.outcome).toMatch(/^Order \d+: delivered 1 line \(order [\w-]+\)\.$/);

    // Shopify's retry of the same delivery (same webhook id and body, an hour later).
    const retry = await deliver(body, {
      "X-Shopify-Webhook-Id": webhookId,
      "X-Shopify-Triggered-At": new Date(Date.now() - 3600_000).toISOString(),
    });
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as { outcome: string }).outcome).toBe(answer.outcome);
    // The same order delivered again as another event (another webhook id, a body that differs).
    const again = await deliver(JSON.stringify({ ...order, updated_at: new Date().toISOString() }));
    expect(again.status).toBe(200);
    expect(((await again.json()) as { outcome: string }).outcome).toBe(
      `Order ${order.id}: 1 delivered before.`,
    );

    const sales = await salesOf(order.id);
    expect(sales).toHaveLength(1);
    expect(sales[0]).toMatchObject({
      shop_domain: SHOP,
      line_item_id: String(order.line_items[0].id),
      creator_id: creator.user.id,
      listing_id: listing.id,
      outcome: "delivered",
    });
    const ours = await rowWhere("orders", "*", "id", sales[0].order_id!);
    expect(ours).toMatchObject({
      provider: "shopify",
      status: "paid",
      customer_email: buyer,
      customer_name: "Bea Buyer",
      total_cents: 1250,
      currency: "usd",
    });
    const items = await rowsWhere("order_items", "order_id", ours.id);
    expect(items).toEqual([
      expect.objectContaining({
        listing_id: listing.id,
        file_key: listing.file_key,
        price_cents: 1250,
      }),
    ]);
    const grants = await rowsWhere("download_grants", "order_id", ours.id);
    expect(grants).toHaveLength(1);

    // The ledger: the whole price is the creator's, no fee is ours, nothing is owed through us.
    const shares = await rowsWhere("earnings", "order_id", ours.id);
    expect(shares).toEqual([
      expect.objectContaining({
        creator_id: creator.user.id,
        amount_cents: 1250,
        platform_fee_cents: 0,
        status: "elsewhere",
        test_mode: 0,
      }),
    ]);
    expect(await creatorBalance(getDb(), creator.user.id, { includeTestSales: true })).toEqual({
      earned: 0,
      owed: 0,
      transferred: 0,
      held: 0,
      reversed: 0,
    });
    expect(await creatorTotals(getDb(), creator.user.id, { includeTestSales: true })).toMatchObject(
      { sales: 1, earningsCents: 1250 },
    );
    // No transfer is queued for it.
    const transfers = await getDb()
      .selectFrom("jobs")
      .select("id")
      .where("kind", "=", "payouts.transfer")
      .where("payload", "like", `%${shares[0].id}%`)
      .execute();
    expect(transfers).toHaveLength(0);

    // One receipt, from the real outbox: the items, the store that took the payment, and the library link.
    const receipts = await receiptsTo(buyer);
    expect(receipts).toHaveLength(1);
    const text = receipts[0].text ?? "";
    expect(receipts[0].subject).toBe("Your Selfie Studio receipt");
    expect(text).toContain(`the Shopify store ${SHOP} (order #1001)`);
    expect(text).toContain("Shop Portrait");
    expect(text).toContain(`Order: ${ours.id}`);
    const libraryLink = /https?:\/\/\S+\/library\S*/.exec(text)?.[0];
    expect(libraryLink).toBeTruthy();

    // The store took the payment: the admin cannot refund it here (409, nothing changes).
    await expect(
      refundPaidOrder(
        { db: getDb(), now: new Date(), providerOf: (id) => providerFor(id, getConfig()) },
        { orderId: ours.id, reason: undefined, actorId: "admin" },
      ),
    ).rejects.toMatchObject({ status: 409 });
    expect((await rowWhere("orders", "status", "id", ours.id)).status).toBe("paid");
  });

  it("without the buyer's email (no protected customer data access): recorded, nothing mailed, and the Shopify card says a delivery app must be attached or the access granted", async () => {
    const { creator, productId } = await publishedListing();
    const order = paidOrder([{ productId, price: "12.50" }], {});
    const response = await deliver(JSON.stringify(order));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { outcome: string }).outcome).toBe(
      `Order ${order.id}: 1 not delivered: Shopify sent no buyer email (protected customer data).`,
    );
    const sales = await salesOf(order.id);
    expect(sales).toEqual([
      expect.objectContaining({ outcome: "no_buyer_email", order_id: null, listing_id: null }),
    ]);
    const screen = await invoke(
      integrationsScreen,
      creator.user,
      {},
      plainContext("http://localhost", { ties: testTies, db: getDb(), now: new Date() }),
    );
    expect(screen.shopifyUndelivered).toEqual({ count: 1, latestAt: sales[0].created_at });
  });

  it("customers/redact forgets the buyer's email and name on the orders delivered for that store", async () => {
    const { productId } = await publishedListing();
    const buyer = `cy-${crypto.randomBytes(4).toString("hex")}@example.com`;
    const order = paidOrder([{ productId, price: "9.00", quantity: 2 }], { contactEmail: buyer });
    expect((await deliver(JSON.stringify(order))).status).toBe(200);
    const [sale] = await salesOf(order.id);
    expect((await rowWhere("orders", "*", "id", sale.order_id!)).total_cents).toBe(1800);
    const redact = JSON.stringify({
      shop_id: shopifyId(),
      shop_domain: SHOP,
      customer: { id: 191167, email: buyer },
      orders_to_redact: [order.id],
    });
    const response = await deliver(redact, { "X-Shopify-Topic": "customers/redact" });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { outcome: string }).outcome).toBe(
      "Forgot the buyer's email and name on 1 order delivered for this store.",
    );
    const forgotten = await rowWhere("orders", "*", "id", sale.order_id!);
    expect(forgotten.customer_email).not.toContain(buyer);
    expect(forgotten.customer_name).toBe("Deleted buyer");
  });

  it("an order's body names no store: without X-Shopify-Shop-Domain it is a 400; a header naming another store matches none of the lines", async () => {
    const { productId } = await publishedListing();
    const buyer = "dee@example.com";
    const order = paidOrder([{ productId, price: "12.50" }], { email: buyer });
    const body = JSON.stringify(order);
    const bare = await deliver(body, {
      "X-Shopify-Shop-Domain": null,
      "X-Shopify-Webhook-Id": null,
      "X-Shopify-Event-Id": null,
    });
    expect(bare.status).toBe(400);
    const elsewhere = await deliver(body, { "X-Shopify-Shop-Domain": "other.myshopify.com" });
    expect(elsewhere.status).toBe(200);
    expect(((await elsewhere.json()) as { outcome: string }).outcome).toBe(
      "No line of this order is a Selfie Studio publication.",
    );
    expect(await salesOf(order.id)).toHaveLength(0);
  });
});
