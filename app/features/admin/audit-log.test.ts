import { beforeEach, describe, expect, it } from "vitest";
import * as adminRoute from "~/routes/_admin+/admin";
import { getDb } from "~/infra/db.server";
import { recordRefund } from "~/features/market/orders/refunds.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { testCheckoutSale } from "#tests/setup/payouts";
import { emptyDatabase } from "#tests/setup/ledger-fixtures";
import { apiRoute } from "#tests/setup/api-routes";
import { failedTestJob } from "#tests/setup/jobs";
import { TEST_PASSWORD } from "#tests/setup/accounts";
import { type CallContext, plainContext } from "~/infra/call-context.server";
import { invoke } from "~/infra/procedure.server";
import { sha256 } from "~/infra/ids.server";
import { createWebSession } from "~/features/accounts/sessions/sessions.server";
import { findUserById } from "~/features/accounts/users.server";
import { MAIL_JOB } from "~/features/mail/public.server";
import { adminCancelJob, adminRetryJob } from "~/features/admin/procedures/jobs.server";
import { inviteFromWaitlist } from "~/features/accounts/registration/waitlist.procedures.server";
import {
  changePassword,
  revokeSession,
  signOutEverywhereElse,
} from "~/features/accounts/sessions/security.procedures.server";
import {
  confirmEmailChange,
  requestEmailChange,
} from "~/features/accounts/profile/procedures.server";
import { testTies } from "#tests/setup/ties";
import { rowWhere, selectWhere } from "#tests/setup/rows-where";

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

describe("the audit log, beyond bans and refunds", () => {
  it("records the admin's job retry and cancel and waitlist invitations, and a user's password change, email change and session revocations", async () => {
    const admin = await createTestAdmin();
    const ctx = (values: Partial<CallContext> = {}) =>
      plainContext("http://localhost:3000", { ties: testTies, clientIp: "192.0.2.60", ...values });

    // The admin: Retry and Cancel on failed jobs, an invitation from the waitlist.
    const retried = await failedTestJob();
    const cancelled = await failedTestJob();
    await invoke(adminRetryJob, admin.user, { jobId: retried }, ctx());
    await invoke(adminCancelJob, admin.user, { jobId: cancelled }, ctx());
    await getDb()
      .insertInto("waitlist")
      .values({
        id: "audit-entry",
        email: "wait@example.com",
        created_at: new Date().toISOString(),
      })
      .execute();
    await invoke(inviteFromWaitlist, admin.user, { entryId: "audit-entry" }, ctx());

    // A user: the password, the email, one session ended and every other one.
    const { user, token } = await createTestUser({ email: "sec@example.com" });
    await invoke(
      changePassword,
      user,
      { currentPassword: TEST_PASSWORD, newPassword: "a-brand-new-secret" },
      ctx({ bearerToken: token }),
    );
    // The row as it is now (its password hash changed).
    const current = (await findUserById(getDb(), user.id))!;
    await invoke(
      requestEmailChange,
      current,
      { email: "sec.new@example.com", password: "a-brand-new-secret" },
      ctx(),
    );
    const [link] = (await selectWhere("jobs", "payload", "kind", MAIL_JOB))
      .map((row) => JSON.parse(row.payload) as { to: string; text: string })
      .filter((mail) => mail.to === "sec.new@example.com");
    const linkToken = new URL(
      /http:\/\/\S+confirm-email\?token=\S+/.exec(link.text)![0],
    ).searchParams.get("token")!;
    await invoke(confirmEmailChange, user, { token: linkToken }, ctx());
    const { secret } = await createWebSession(getDb(), user.id, 30);
    const { public_id: sessionId } = await rowWhere(
      "sessions",
      "public_id",
      "id_hash",
      sha256(secret),
    );
    await invoke(revokeSession, user, { id: sessionId }, ctx({ bearerToken: token }));
    await invoke(signOutEverywhereElse, user, {}, ctx({ bearerToken: token }));

    const { body } = await audit({ token: admin.token });
    const recorded = body.entries
      .map((entry) => ({
        actorId: entry.actorId,
        action: entry.action,
        subjectId: entry.subjectId,
        detail: entry.detail,
      }))
      .reverse();
    expect(recorded).toEqual([
      {
        actorId: admin.user.id,
        action: "job.retry",
        subjectId: retried,
        detail: { kind: expect.any(String) },
      },
      {
        actorId: admin.user.id,
        action: "job.cancel",
        subjectId: cancelled,
        detail: { kind: expect.any(String) },
      },
      { actorId: admin.user.id, action: "waitlist.invite", subjectId: "audit-entry", detail: null },
      { actorId: user.id, action: "user.password_change", subjectId: user.id, detail: null },
      { actorId: user.id, action: "user.email_change", subjectId: user.id, detail: null },
      {
        actorId: user.id,
        action: "user.session_revoke",
        subjectId: user.id,
        detail: { kind: "web" },
      },
      { actorId: user.id, action: "user.sign_out_elsewhere", subjectId: user.id, detail: null },
    ]);
    // The log stores people by id only: no address is written into it (the list joins today's).
    const stored = await getDb().selectFrom("audit_log").selectAll().execute();
    expect(JSON.stringify(stored)).not.toMatch(/sec(\.new)?@example\.com|wait@example\.com/);
  });
});
