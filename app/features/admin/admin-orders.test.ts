import { beforeEach, describe, expect, it } from "vitest";
import * as adminRoute from "~/routes/_admin+/admin";
import { loader as downloadRoute } from "~/routes/_resources+/downloads.$token";
import { loader as licensePage } from "~/routes/_market+/licenses.$licenseId";
import { getDb } from "~/infra/db.server";
import { downloadsOfOrder } from "~/features/market/orders/download-grants.server";
import { startCheckout } from "~/features/market/checkout/checkout.server";
import { TestCheckoutProvider } from "~/infra/payments/test-checkout.server";
import { MAIL_JOB } from "~/features/mail/mail-job.server";
import { callRoute, formRequest, makeRequest, ORIGIN } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { testCheckoutSale } from "#tests/setup/payouts";
import { emptyDatabase } from "#tests/setup/ledger-fixtures";
import { ERASED_FIRST_NAME, ERASED_LAST_NAME } from "~/features/accounts/account-erasure.server";
import { apiRoute } from "#tests/setup/api-routes";
import { flashOf } from "#tests/setup/flash";
import { rowWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const ordersRoute = apiRoute("/api/admin/orders");
const refundRoute = apiRoute("/api/admin/orders/{orderId}/refund");
const payoutsRoute = apiRoute("/api/admin/payouts");
const statsRoute = apiRoute("/api/admin/stats");
const usersRoute = apiRoute("/api/admin/users");

beforeEach(emptyDatabase);

type OrderView = {
  id: string;
  status: string;
  provider: string;
  customerEmail: string;
  total: string;
  refunded: string;
  items: { title: string; creatorId: string; creatorName: string }[];
};

/** The order's stored status. */
async function orderStatus(orderId: string) {
  const row = await rowWhere("orders", "status", "id", orderId);
  return row.status;
}

/** A creator with a $20 listing, and the super admin. */
async function setup() {
  const admin = await createTestAdmin();
  const creator = await createTestUser({
    email: "cora@example.com",
    firstName: "Cora",
    lastName: "Creator",
  });
  const { listing } = await createListing(creator.user.id, { title: "Sunset Portrait", price: 20 });
  return { admin, creator, listing };
}

async function listOrders(token: string, query = "") {
  const response = await callRoute(
    ordersRoute.loader,
    makeRequest(`/api/admin/orders${query}`, { token }),
  );
  return {
    status: response.status,
    body: (await response.json()) as OrderView[] & { message?: string },
  };
}

function refund(
  orderId: string,
  auth: { token?: string; cookie?: string },
  json: unknown = { reason: "Bought twice by mistake" },
) {
  return callRoute(
    refundRoute.action,
    makeRequest(`/api/admin/orders/${orderId}/refund`, { method: "POST", json, ...auth }),
    { orderId },
  );
}

describe("GET /api/admin/orders", () => {
  it("lists orders newest first and finds them by email part, exact order id and status", async () => {
    const { admin, creator, listing } = await setup();
    const first = await testCheckoutSale(
      [listing.id],
      "bea@example.com",
      new Date(Date.now() - 60_000),
    );
    const second = await testCheckoutSale([listing.id], "dan@shop.example", new Date());

    const all = await listOrders(admin.token);
    expect(all.status).toBe(200);
    expect(all.body.map((order) => order.id)).toEqual([second, first]);
    expect(all.body[1]).toMatchObject({
      status: "paid",
      provider: "test",
      customerEmail: "bea@example.com",
      total: "20",
      refunded: "0",
      items: [
        {
          listingId: listing.id,
          title: "Sunset Portrait",
          creatorId: creator.user.id,
          creatorName: "Cora Creator",
          price: "20",
        },
      ],
    });

    expect((await listOrders(admin.token, "?q=BEA@EX")).body.map((order) => order.id)).toEqual([
      first,
    ]);
    expect((await listOrders(admin.token, `?q=${first}`)).body.map((order) => order.id)).toEqual([
      first,
    ]);
    // Part of an id is not a match: ids match exactly.
    expect((await listOrders(admin.token, `?q=${first.slice(0, 6)}x`)).body).toEqual([]);
    expect((await listOrders(admin.token, "?status=paid")).body).toHaveLength(2);
    expect((await listOrders(admin.token, "?status=refunded")).body).toEqual([]);
    expect(
      (await listOrders(admin.token, "?q=dan&status=paid")).body.map((order) => order.id),
    ).toEqual([second]);

    const invalid = await listOrders(admin.token, "?status=lost");
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toEqual(expect.any(String));
  });

  it('names each item\'s creator as stored: an erased creator is "Deleted creator"', async () => {
    const { admin, listing } = await setup();
    const gone = await createTestUser({
      email: "gone@example.com",
      firstName: "Gwen",
      lastName: "Gone",
    });
    const { listing: theirs } = await createListing(gone.user.id, {
      title: "Noir Portrait",
      price: 12,
    });
    await testCheckoutSale([listing.id, theirs.id], "bea@example.com", new Date());
    await updateWhere(
      "users",
      { first_name: ERASED_FIRST_NAME, last_name: ERASED_LAST_NAME },
      "id",
      gone.user.id,
    );

    const [order] = (await listOrders(admin.token)).body;
    expect(order.items.map((item) => [item.title, item.creatorName])).toEqual([
      ["Sunset Portrait", "Cora Creator"],
      ["Noir Portrait", "Deleted creator"],
    ]);
  });

  it("answers 401 signed out and 403 for a creator", async () => {
    const { creator } = await setup();
    expect((await callRoute(ordersRoute.loader, makeRequest("/api/admin/orders"))).status).toBe(
      401,
    );
    expect((await listOrders(creator.token)).status).toBe(403);
    expect(
      (
        await callRoute(
          payoutsRoute.loader,
          makeRequest("/api/admin/payouts", { token: creator.token }),
        )
      ).status,
    ).toBe(403);
  });
});

describe("POST /api/admin/orders/{orderId}/refund", () => {
  it("refunds a paid test-checkout order: downloads end, the license is revoked, revenue and earnings drop, the buyer is mailed", async () => {
    const { admin, creator, listing } = await setup();
    const orderId = await testCheckoutSale([listing.id]);
    const db = getDb();
    const [download] = await downloadsOfOrder(db, orderId, ORIGIN);
    const token = download.downloadUrl.split("/").pop()!;
    expect(
      (
        await callRoute(downloadRoute, makeRequest(`/downloads/${token}`, { method: "HEAD" }), {
          token,
        })
      ).status,
    ).toBe(200);

    const statsOf = async () =>
      (await (
        await callRoute(statsRoute.loader, makeRequest("/api/admin/stats", { token: admin.token }))
      ).json()) as { platformRevenue: number };
    const earningsOf = async () => {
      const users = (await (
        await callRoute(usersRoute.loader, makeRequest("/api/admin/users", { token: admin.token }))
      ).json()) as { id: string; earnings: number }[];
      return users.find((user) => user.id === creator.user.id)!.earnings;
    };
    const revenueBefore = (await statsOf()).platformRevenue;
    const earningsBefore = await earningsOf();
    expect(revenueBefore).toBe(3);
    expect(earningsBefore).toBe(17);
    const mailBefore = await selectWhere("jobs", "id", "kind", MAIL_JOB);

    // A creator may not refund.
    expect((await refund(orderId, { token: creator.token })).status).toBe(403);
    expect(await orderStatus(orderId)).toBe("paid");

    const response = await refund(orderId, { token: admin.token });
    expect(response.status).toBe(200);
    const view = (await response.json()) as OrderView & { refundReason: string };
    expect(view).toMatchObject({
      id: orderId,
      status: "refunded",
      total: "20",
      refunded: "20",
      refundReason: "Bought twice by mistake",
    });
    expect(view.refunded).toBe(view.total);

    // Platform revenue dropped by the platform fee (15% of $20), the creator's earnings by the share.
    expect((await statsOf()).platformRevenue).toBeCloseTo(revenueBefore - 3, 2);
    expect(await earningsOf()).toBeCloseTo(earningsBefore - 17, 2);

    // The download link answers 410, and the license says when it was revoked.
    expect(
      (await callRoute(downloadRoute, makeRequest(`/downloads/${token}`), { token })).status,
    ).toBe(410);
    const { license_id: licenseId } = await rowWhere("orders", "license_id", "id", orderId);
    const license = await callRoute(licensePage, makeRequest(`/licenses/${licenseId}`), {
      licenseId,
    });
    expect(license.status).toBe(200);
    expect(((await license.json()) as { revokedAt: string | null }).revokedAt).toEqual(
      expect.any(String),
    );

    // The buyer's refund notice is a queued mail job.
    const mail = await selectWhere("jobs", ["id", "payload"], "kind", MAIL_JOB);
    const notices = mail
      .filter((job) => !mailBefore.some((old) => old.id === job.id))
      .map((job) => JSON.parse(job.payload) as { to: string; subject: string });
    expect(notices).toContainEqual(
      expect.objectContaining({
        to: "bea@example.com",
        subject: expect.stringMatching(/refunded/),
      }),
    );

    // The refunded order is found by its status.
    expect(
      (await listOrders(admin.token, "?status=refunded")).body.map((order) => order.id),
    ).toEqual([orderId]);

    // A second refund is a conflict and changes nothing.
    const again = await refund(orderId, { token: admin.token });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ message: expect.stringContaining("refunded") });
    expect((await statsOf()).platformRevenue).toBeCloseTo(revenueBefore - 3, 2);
  });

  it("answers 404 for an unknown order, 409 for an unpaid one and 401 signed out", async () => {
    const { admin, listing } = await setup();
    const unknown = await refund("no-such-order", { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: expect.any(String) });
    const pending = await startCheckout(getDb(), new TestCheckoutProvider(), {
      listingIds: [listing.id],
      customer: { name: "Bea Buyer", email: "bea@example.com" },
      origin: ORIGIN,
      now: new Date(),
    });
    const unpaid = await refund(pending.orderId, { token: admin.token });
    expect(unpaid.status).toBe(409);
    expect(await unpaid.json()).toEqual({ message: expect.stringContaining("pending") });
    expect((await refund("no-such-order", {})).status).toBe(401);
  });

  it("takes no body at all (the reason is optional)", async () => {
    const { admin, listing } = await setup();
    const orderId = await testCheckoutSale([listing.id]);
    const response = await callRoute(
      refundRoute.action,
      makeRequest(`/api/admin/orders/${orderId}/refund`, { method: "POST", token: admin.token }),
      { orderId },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "refunded", refunded: "20" });
  });
});

describe("GET /api/admin/payouts", () => {
  it("shows each creator's account state and balance, with refunds as reversed", async () => {
    const { admin, creator, listing } = await setup();
    await testCheckoutSale([listing.id]);
    const refunded = await testCheckoutSale([listing.id]);
    expect((await refund(refunded, { token: admin.token })).status).toBe(200);
    const response = await callRoute(
      payoutsRoute.loader,
      makeRequest("/api/admin/payouts", { token: admin.token }),
    );
    expect(response.status).toBe(200);
    const rows = (await response.json()) as {
      userId: string;
      account: { status: string };
      earned: string;
      reversed: string;
    }[];
    expect(rows.find((row) => row.userId === creator.user.id)).toMatchObject({
      email: "cora@example.com",
      firstName: "Cora",
      account: { status: "not_connected" },
      earned: "17",
    });
    expect(Number(rows.find((row) => row.userId === creator.user.id)!.reversed)).toBeGreaterThan(0);
  });
});

describe("/admin Orders and Payouts", () => {
  it("loads the orders (filtered by orderSearch and orderStatus), the payouts and the refund confirmation", async () => {
    const { admin, creator, listing } = await setup();
    const paid = await testCheckoutSale([listing.id], "bea@example.com");
    const other = await testCheckoutSale([listing.id], "dan@example.com");
    await refund(other, { token: admin.token });

    const page = async (query: string) =>
      (
        await callRoute(adminRoute.loader, makeRequest(`/admin${query}`, { cookie: admin.cookie }))
      ).json();
    const all = await page("");
    expect(all.orders.map((order: OrderView) => order.id).sort()).toEqual([paid, other].sort());
    expect(all.payouts.map((row: { userId: string }) => row.userId)).toContain(creator.user.id);
    expect(all.refundTarget).toBeNull();

    const filtered = await page("?orderSearch=bea&orderStatus=paid&q=cora");
    expect(filtered.orders.map((order: OrderView) => order.id)).toEqual([paid]);
    expect(filtered).toMatchObject({ orderSearch: "bea", orderStatus: "paid", q: "cora" });
    expect(filtered.users.map((user: { email: string }) => user.email)).toEqual([
      "cora@example.com",
    ]);

    // An unknown status shows every status rather than failing the page.
    expect((await page("?orderStatus=lost")).orderStatus).toBe("");

    expect((await page(`?refund=${paid}`)).refundTarget).toMatchObject({
      id: paid,
      customerEmail: "bea@example.com",
      total: "20",
    });
    // Only a paid order can be confirmed; anything else opens no panel.
    expect((await page(`?refund=${other}`)).refundTarget).toBeNull();
    expect((await page("?refund=nope")).refundTarget).toBeNull();
    expect((await page(`?refund=${"x".repeat(500)}`)).refundTarget).toBeNull();
  });

  it("refunds from the plain form post and redirects back with a notice", async () => {
    const { admin, listing } = await setup();
    const orderId = await testCheckoutSale([listing.id]);
    const response = await callRoute(
      adminRoute.action,
      formRequest(
        `/admin?orderStatus=paid&refund=${orderId}`,
        { intent: "refund-order", orderId, reason: "" },
        { cookie: admin.cookie },
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin?orderStatus=paid");
    expect(await flashOf(response)).toEqual({
      kind: "success",
      title: "Order refunded",
      description: `Order ${orderId} refunded.`,
    });
    const row = await rowWhere(
      "orders",
      ["status", "refunded_cents", "refund_reason"],
      "id",
      orderId,
    );
    expect(row).toMatchObject({ status: "refunded", refunded_cents: 2000 });

    // Again: the order is no longer paid, so the admin is told why, never a 500.
    const again = await callRoute(
      adminRoute.action,
      formRequest(
        `/admin?refund=${orderId}`,
        { intent: "refund-order", orderId },
        { cookie: admin.cookie },
      ),
    );
    expect(again.status).toBe(302);
    expect(await flashOf(again)).toEqual({
      kind: "error",
      title: "Refund failed",
      description: expect.stringContaining("refunded"),
    });

    const unknown = await callRoute(
      adminRoute.action,
      formRequest("/admin", { intent: "refund-order", orderId: "nope" }, { cookie: admin.cookie }),
    );
    expect(unknown.status).toBe(302);
    expect(await flashOf(unknown)).toEqual({
      kind: "error",
      title: "Refund failed",
      description: "Order not found",
    });
  });

  it("refuses the refund form to a creator (403) and from another site", async () => {
    const { admin, creator, listing } = await setup();
    const orderId = await testCheckoutSale([listing.id]);
    const denied = await callRoute(
      adminRoute.action,
      formRequest("/admin", { intent: "refund-order", orderId }, { cookie: creator.cookie }),
    );
    expect(denied.status).toBe(403);
    const crossSite = await callRoute(
      adminRoute.action,
      formRequest(
        "/admin",
        { intent: "refund-order", orderId },
        { cookie: admin.cookie, origin: "cross" },
      ),
    );
    expect(await flashOf(crossSite)).toMatchObject({ kind: "error", title: "Refund failed" });
    expect(await orderStatus(orderId)).toBe("paid");
  });
});
