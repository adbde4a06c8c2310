import { beforeEach, describe, expect, it } from "vitest";
import * as adminRoute from "~/routes/_admin+/admin";
import { getDb } from "~/infra/db.server";
import { recordRefund } from "~/features/market/refunds.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { testCheckoutSale } from "#tests/setup/payouts";
import { emptyDatabase } from "#tests/setup/ledger-fixtures";
import { apiRoute } from "#tests/setup/api-routes";

const auditRoute = apiRoute("/api/admin/audit");
const refundRoute = apiRoute("/api/admin/orders/{orderId}/refund");
const statusRoute = apiRoute("/api/admin/users/{userId}/{action}");
const usersRoute = apiRoute("/api/admin/users");

beforeEach(emptyDatabase);

type AuditPage = {
  entries: {
    id: number;
    actorId: string;
    actorEmail: string | null;
    action: string;
    subjectId: string;
    detail: Record<string, unknown> | null;
  }[];
  nextCursor: string | null;
};

async function audit(auth: { token?: string; cookie?: string }, query = "") {
  const response = await callRoute(
    auditRoute.loader,
    makeRequest(`/api/admin/audit${query}`, auth),
  );
  return { status: response.status, body: (await response.json()) as AuditPage };
}

describe("the audit log", () => {
  it("records the admin's refunds, bans, unbans and created users, and a refund Stripe reported; the admin reads them newest first", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser({ email: "cora@example.com" });
    const { listing } = await createListing(creator.user.id, { price: 20 });
    const orderId = await testCheckoutSale([listing.id]);
    const otherOrder = await testCheckoutSale([listing.id], "dan@example.com");

    const refunded = await callRoute(
      refundRoute.action,
      makeRequest(`/api/admin/orders/${orderId}/refund`, {
        method: "POST",
        json: { reason: "Bought twice" },
        token: admin.token,
      }),
      { orderId },
    );
    expect(refunded.status).toBe(200);
    for (const action of ["ban", "unban"]) {
      const response = await callRoute(
        statusRoute.action,
        makeRequest(`/api/admin/users/${creator.user.id}/${action}`, {
          method: "POST",
          token: admin.token,
        }),
        { userId: creator.user.id, action },
      );
      expect(response.status).toBe(200);
    }
    const created = await callRoute(
      usersRoute.action,
      makeRequest("/api/admin/users", {
        json: {
          email: "made@example.com",
          password: "a-fresh-passphrase",
          firstName: "Made",
          lastName: "ByAdmin",
        },
        token: admin.token,
      }),
    );
    expect(created.status).toBe(201);
    const madeId = ((await created.json()) as { id: string }).id;
    await getDb()
      .transaction()
      .execute((trx) =>
        recordRefund(trx, otherOrder, {
          refundedTotalCents: 500,
          reason: "Refunded in Stripe",
          now: new Date(),
        }),
      );

    const { status, body } = await audit({ token: admin.token });
    expect(status).toBe(200);
    expect(body.entries.map((entry) => [entry.action, entry.actorId, entry.subjectId])).toEqual([
      ["order.refund", "stripe", otherOrder],
      ["user.create", admin.user.id, madeId],
      ["user.unban", admin.user.id, creator.user.id],
      ["user.ban", admin.user.id, creator.user.id],
      ["order.refund", admin.user.id, orderId],
    ]);
    expect(body.entries[4]).toMatchObject({
      actorEmail: "root@example.com",
      detail: { amountCents: 2000, reason: "Bought twice" },
    });
    expect(body.nextCursor).toBeNull();

    // Paged: two at a time, never repeating or skipping.
    const first = await audit({ token: admin.token }, "?limit=2");
    expect(first.body.entries).toHaveLength(2);
    const second = await audit({ token: admin.token }, `?limit=2&cursor=${first.body.nextCursor}`);
    const third = await audit({ token: admin.token }, `?limit=2&cursor=${second.body.nextCursor}`);
    expect(
      [...first.body.entries, ...second.body.entries, ...third.body.entries].map(
        (entry) => entry.id,
      ),
    ).toEqual(body.entries.map((entry) => entry.id));
    expect(third.body.nextCursor).toBeNull();

    // The portal shows it too (its Audit log section).
    const portal = await callRoute(
      adminRoute.loader,
      makeRequest("/admin", { cookie: admin.cookie }),
    );
    expect(((await portal.json()) as { audit: AuditPage }).audit.entries).toHaveLength(5);
  });

  it("is for the super admin only, and refuses a bad cursor or limit with 400", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser();
    expect((await audit({})).status).toBe(401);
    expect((await audit({ token: creator.token })).status).toBe(403);
    for (const query of ["?cursor=abc", "?cursor=-1", "?limit=0", "?limit=1000", "?limit=x"]) {
      expect((await audit({ token: admin.token }, query)).status, query).toBe(400);
    }
  });
});
