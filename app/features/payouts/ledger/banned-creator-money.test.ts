import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { jsonTextField } from "~/infra/sql-dialect.server";
import { closeDispute, openDispute } from "~/features/market/orders/disputes.server";
import { TRANSFER_JOB } from "~/features/payouts/ledger/shares.server";
import { testAccountBalanceCents } from "~/infra/payouts/test-payouts.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import {
  movementsOf,
  onboardTestPayouts,
  runPayoutJobs,
  sharesOf,
  testCheckoutSale,
} from "#tests/setup/payouts";
import { apiRoute } from "#tests/setup/api-routes";
import {
  downloadGrantsOf,
  openTestCheckout,
  paymentStatusOf,
  payTestCheckout,
} from "#tests/setup/test-checkout";
import { rowWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const statusRoute = apiRoute("/api/admin/users/{userId}/{action}");

/**
 * A ban stops a creator's money (the built-in test checkout and test payout
 * provider): their owed shares are held and no transfer goes out, whatever
 * was queued before; a checkout of their listing that was open at the ban
 * and is paid after it is refunded at once; an unban releases the held
 * shares of orders that are not disputed.
 */

let admin: Awaited<ReturnType<typeof createTestAdmin>>;
beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
  admin ??= await createTestAdmin();
});

async function setStatus(userId: string, action: "ban" | "unban") {
  const response = await callRoute(
    statusRoute.action,
    makeRequest(`/api/admin/users/${userId}/${action}`, { method: "POST", token: admin.token }),
    { userId, action },
  );
  expect(response.status).toBe(200);
}

/** A checkout of the listings in the built-in test checkout, left open on its payment page. */
async function openCheckout(listingIds: string[], email: string) {
  const sessionId = await openTestCheckout(
    listingIds,
    { name: "Bea Buyer", email },
    { licenseType: "standard" },
  );
  return { sessionId };
}

/** The order of a buyer (each test's buyers have addresses of their own). */
const orderOfBuyer = (email: string) => rowWhere("orders", "*", "customer_email", email);
const transferJobsOf = (earningId: string) =>
  getDb()
    .selectFrom("jobs")
    .selectAll()
    .where("kind", "=", TRANSFER_JOB)
    .where(({ ref }) => jsonTextField(getDb(), ref("payload"), "earningId"), "=", earningId)
    .execute();

describe("a banned creator's money (test checkout and test payouts)", () => {
  it("a transfer queued before the ban never goes out: the share is held and the queued job is called off", async () => {
    const creator = await createTestUser();
    const accountId = await onboardTestPayouts(creator.user);
    const { listing } = await createListing(creator.user.id, { price: 20 });
    const orderId = await testCheckoutSale([listing.id], "queued@example.com");
    const [queued] = await sharesOf(orderId);
    expect(await transferJobsOf(queued.id)).toMatchObject([{ status: "queued" }]);

    await setStatus(creator.user.id, "ban");
    await runPayoutJobs();
    expect(await movementsOf(accountId)).toHaveLength(0);
    expect(await sharesOf(orderId)).toMatchObject([
      { status: "held", held_from: "owed", transfer_id: null },
    ]);
    expect(await transferJobsOf(queued.id)).toMatchObject([{ status: "failed" }]);
  });

  it("a transfer job queued without its creator (before jobs named one) finds the share held and sends nothing", async () => {
    const creator = await createTestUser();
    const accountId = await onboardTestPayouts(creator.user);
    const { listing } = await createListing(creator.user.id, { price: 20 });
    const orderId = await testCheckoutSale([listing.id], "nameless@example.com");
    // As an older server queued it: no user id, so the ban's cancellation cannot find it.
    await updateWhere("jobs", { user_id: null }, "kind", TRANSFER_JOB);
    await setStatus(creator.user.id, "ban");
    await runPayoutJobs();
    expect(await movementsOf(accountId)).toHaveLength(0);
    expect(await sharesOf(orderId)).toMatchObject([{ status: "held", transfer_id: null }]);
  });

  it("an account that becomes ready while the creator is banned releases nothing", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { price: 12 });
    const orderId = await testCheckoutSale([listing.id], "owed@example.com");
    expect(await sharesOf(orderId)).toMatchObject([{ status: "owed" }]);
    await setStatus(creator.user.id, "ban");
    // The account finishes onboarding after the ban (as account.updated or the creator's return would report it).
    const accountId = await onboardTestPayouts(creator.user);
    await runPayoutJobs();
    expect(await movementsOf(accountId)).toHaveLength(0);
    expect(await sharesOf(orderId)).toMatchObject([{ status: "held", held_from: "owed" }]);
  });

  it("a checkout open at the ban and paid after it is refunded at once: no downloads, no transfer, the share reversed", async () => {
    const banned = await createTestUser();
    const other = await createTestUser();
    const bannedAccount = await onboardTestPayouts(banned.user);
    const otherAccount = await onboardTestPayouts(other.user);
    const a = await createListing(banned.user.id, { price: 30 });
    const b = await createListing(other.user.id, { price: 10 });
    const { sessionId } = await openCheckout(
      [a.listing.id, b.listing.id],
      "open-checkout@example.com",
    );

    await setStatus(banned.user.id, "ban");
    const paid = await payTestCheckout(sessionId);
    expect(paid.status).toBe(302);
    await runPayoutJobs();

    const order = await orderOfBuyer("open-checkout@example.com");
    expect(order).toMatchObject({ status: "refunded", refunded_cents: 4000 });
    expect(order.refund_reason).toMatch(/suspended/i);
    expect(await downloadGrantsOf(order.id)).toHaveLength(0);
    const shares = await sharesOf(order.id);
    expect(shares).toHaveLength(2);
    for (const share of shares)
      expect(share).toMatchObject({
        status: "reversed",
        transfer_id: null,
        creator_reversed_cents: share.amount_cents,
      });
    expect(await movementsOf(bannedAccount)).toHaveLength(0);
    expect(await movementsOf(otherAccount)).toHaveLength(0);
    const status = await (await paymentStatusOf(sessionId)).json();
    expect(status).toMatchObject({ success: false, paymentStatus: "refunded", downloads: [] });
    // The buyer is told, and gets no receipt; the banned creator gets no sale notice.
    const mails = (await selectWhere("jobs", "payload", "kind", "mail.send")).map(
      (row) => JSON.parse(row.payload) as { to: string; subject: string },
    );
    expect(
      mails.filter((mail) => mail.to === "open-checkout@example.com").map((mail) => mail.subject),
    ).toEqual([expect.stringMatching(/refund/i)]);
    expect(mails.filter((mail) => mail.to === banned.user.email)).toHaveLength(0);
  });

  it("unban releases the held shares of orders that are not disputed; a refunded order stays refunded", async () => {
    const creator = await createTestUser();
    const accountId = await onboardTestPayouts(creator.user);
    const { listing } = await createListing(creator.user.id, { price: 20 });
    const kept = await testCheckoutSale([listing.id], "kept@example.com");
    const disputed = await testCheckoutSale([listing.id], "disputed@example.com");
    const { sessionId } = await openCheckout([listing.id], "late@example.com");
    await setStatus(creator.user.id, "ban");
    await payTestCheckout(sessionId);
    await getDb()
      .transaction()
      .execute((trx) =>
        openDispute(
          trx,
          disputed,
          { id: "dp_1", status: "needs_response", amountCents: 2000 },
          new Date(),
        ),
      );
    // A dispute won while the creator is banned: the order is paid again, its share still held.
    await getDb()
      .transaction()
      .execute((trx) =>
        openDispute(
          trx,
          kept,
          { id: "dp_2", status: "needs_response", amountCents: 2000 },
          new Date(),
        ),
      );
    await getDb()
      .transaction()
      .execute((trx) =>
        closeDispute(trx, kept, { id: "dp_2", status: "won", amountCents: 2000 }, new Date()),
      );
    await runPayoutJobs();
    expect(await movementsOf(accountId)).toHaveLength(0);
    expect(await sharesOf(kept)).toMatchObject([{ status: "held" }]);

    await setStatus(creator.user.id, "unban");
    await runPayoutJobs();
    expect(await sharesOf(kept)).toMatchObject([
      { status: "transferred", transferred_cents: 1700 },
    ]);
    expect(await sharesOf(disputed)).toMatchObject([{ status: "held", held_from: "owed" }]);
    const late = await orderOfBuyer("late@example.com");
    expect(late.status).toBe("refunded");
    expect(await sharesOf(late.id)).toMatchObject([{ status: "reversed", transfer_id: null }]);
    expect(await testAccountBalanceCents(getDb(), accountId)).toBe(1700);
  });
});
