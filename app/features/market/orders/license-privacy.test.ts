import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { MAIL_JOB } from "~/features/mail/public.server";
import { loader as licensePage } from "~/routes/_market+/licenses.$licenseId";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { onboardTestPayouts, runPayoutJobs } from "#tests/setup/payouts";
import { apiRoute } from "#tests/setup/api-routes";
import { buyAtTestCheckout } from "#tests/setup/test-checkout";
import { ERASED_FIRST_NAME, ERASED_LAST_NAME } from "~/features/accounts/public.server";
import { rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";

const { loader: paymentStatusApi } = apiRoute("/api/payment-status/{sessionId}");
const { loader: earningsApi } = apiRoute("/api/token-earnings");
const { loader: payoutsApi } = apiRoute("/api/token-payouts");
const { loader: adminOrdersApi } = apiRoute("/api/admin/orders");

/**
 * A license page names the buyer (name, company) and everything in the order.
 * Creators who sold in the order see their own sales under a per-item sale
 * reference, never the order id or the license id; the license page answers
 * only to its own id, which only the buyer's surfaces carry.
 */

const buyer = { name: "Lena Licensee", email: "lena@example.com", company: "Secret Client Ltd" };

async function buyFromTwoCreators() {
  const alice = await createTestUser({ firstName: "Alice" });
  const bob = await createTestUser({ firstName: "Bob" });
  await onboardTestPayouts(alice.user);
  const a = await createListing(alice.user.id, { title: "Alice Portrait" });
  const b = await createListing(bob.user.id, { title: "Bob Portrait" });
  const sessionId = await buyAtTestCheckout([a.listing.id, b.listing.id], buyer);
  await runPayoutJobs();
  const order = await rowWhere("orders", "*", "customer_email", buyer.email);
  const items = await rowsWhere("order_items", "order_id", order.id);
  return {
    alice,
    bob,
    sessionId,
    order,
    aliceItem: items.find((item) => item.creator_id === alice.user.id)!,
  };
}

const license = (licenseId: string) =>
  callRoute(licensePage, makeRequest(`/licenses/${licenseId}`), { licenseId });

describe("the license page and what creators see of an order", () => {
  it("creators get a sale reference per item, never a key to the buyer's license; the license answers only to its own id", async () => {
    const { alice, sessionId, order, aliceItem } = await buyFromTwoCreators();

    // Everything Alice is shown about the sale: the earnings and payouts APIs and her sale notice.
    const earnings = await (
      await callRoute(earningsApi, makeRequest("/api/token-earnings", { token: alice.token }))
    ).json();
    const payouts = await (
      await callRoute(payoutsApi, makeRequest("/api/token-payouts", { token: alice.token }))
    ).json();
    const notices = (await selectWhere("jobs", "payload", "kind", MAIL_JOB))
      .map((row) => JSON.parse(row.payload) as { to: string; text: string; html: string })
      .filter((mail) => mail.to === alice.user.email);
    expect(notices).toHaveLength(1);
    const sellerSees = JSON.stringify({ earnings, payouts, notices });
    expect(earnings.records).toEqual([expect.objectContaining({ saleReference: aliceItem.id })]);
    expect(payouts.transfers).toEqual([expect.objectContaining({ saleReference: aliceItem.id })]);
    expect(notices[0].text).toContain(aliceItem.id);
    expect(sellerSees).not.toContain(order.id);
    expect(sellerSees).not.toContain(order.license_id);
    expect(order.license_id).not.toBe(order.id);

    // The buyer's surfaces carry the license's own address.
    const status = await (
      await callRoute(paymentStatusApi, makeRequest(`/api/payment-status/${sessionId}`), {
        sessionId,
      })
    ).json();
    expect(status.licenseUrl).toBe(`http://localhost:3000/licenses/${order.license_id}`);
    expect(status.downloads.map((download: { licenseUrl: string }) => download.licenseUrl)).toEqual(
      [status.licenseUrl, status.licenseUrl],
    );
    const page = await license(order.license_id);
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await page.json()).toMatchObject({
      buyer: { name: buyer.name, company: buyer.company },
    });

    // The admin finds the order from the sale reference a creator quotes.
    const admin = await createTestAdmin();
    const found = await (
      await callRoute(
        adminOrdersApi,
        makeRequest(`/api/admin/orders?q=${aliceItem.id}`, { token: admin.token }),
      )
    ).json();
    expect(found.map((row: { id: string }) => row.id)).toEqual([order.id]);
    expect(found[0].items).toContainEqual(
      expect.objectContaining({ saleReference: aliceItem.id, title: "Alice Portrait" }),
    );

    // What a creator knows (the order id of old, a sale reference now) opens no license.
    for (const key of [order.id, aliceItem.id]) expect((await license(key)).status, key).toBe(404);
  });

  it("names a creator who erased their account 'a former creator', never the tombstone's 'Deleted'", async () => {
    const { order } = await buyFromTwoCreators();
    // (The order looked up by the buyer's address is the file's first one: erase its Alice.)
    const { creator_id: aliceId } = await getDb()
      .selectFrom("order_items")
      .select("creator_id")
      .where("order_id", "=", order.id)
      .where("title", "=", "Alice Portrait")
      .executeTakeFirstOrThrow();
    // The tombstone the erasure leaves (account-erasure.server.ts).
    await getDb()
      .updateTable("users")
      .set({
        first_name: ERASED_FIRST_NAME,
        last_name: ERASED_LAST_NAME,
        erased_at: new Date().toISOString(),
      })
      .where("id", "=", aliceId)
      .execute();
    const page = await (await license(order.license_id)).json();
    expect(
      page.items.map((item: { title: string; creatorFirstName: string }) => [
        item.title,
        item.creatorFirstName,
      ]),
    ).toEqual([
      ["Alice Portrait", "a former creator"],
      ["Bob Portrait", "Bob"],
    ]);
  });
});
