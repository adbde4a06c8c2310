import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { testAccountBalanceCents } from "~/infra/payouts/test-payouts.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import {
  movementsOf,
  onboardTestPayouts,
  runPayoutJobs,
  sharesOf,
  testCheckoutSale,
} from "#tests/setup/payouts";
import { recordRefund } from "~/features/market/orders/refunds.server";
import { closeDispute, openDispute } from "~/features/market/orders/disputes.server";
import { redeemDownload, grantToken } from "~/features/market/orders/download-grants.server";
import { licenseByLicenseId } from "~/features/market/orders/licenses.server";
import { platformStats } from "~/features/admin/stats.server";
import { creatorBalance } from "~/features/payouts/ledger/balances.server";
import { firstRowWhere, rowWhere, selectWhere } from "#tests/setup/rows-where";

const scope = { includeTestSales: true };
const db = () => getDb();

async function refund(orderId: string, totalCents: number, reason = "test") {
  return db()
    .transaction()
    .execute((trx) =>
      recordRefund(trx, orderId, { refundedTotalCents: totalCents, reason, now: new Date() }),
    );
}

async function licenseOfOrderId(orderId: string) {
  const { license_id } = await rowWhere("orders", "license_id", "id", orderId);
  return licenseByLicenseId(db(), license_id);
}

async function tokensOf(orderId: string): Promise<string[]> {
  const grants = await selectWhere("download_grants", "id", "order_id", orderId);
  return grants.map((grant) => grantToken(grant.id));
}

beforeEach(async () => {
  await db().deleteFrom("jobs").execute();
});

describe("a refund in test mode", () => {
  it("reverses the transferred share at the payout provider once, ends the downloads and license, and takes the fee out of revenue", async () => {
    const creator = await createTestUser();
    const accountId = await onboardTestPayouts(creator.user);
    const { listing } = await createListing(creator.user.id, { price: 20 });
    const revenueBefore = (await platformStats(db(), scope)).platformRevenue;
    const orderId = await testCheckoutSale([listing.id], "refund-one@example.com");
    await runPayoutJobs();

    expect(await sharesOf(orderId)).toMatchObject([
      { status: "transferred", transferred_cents: 1700, amount_cents: 1700 },
    ]);
    expect(await testAccountBalanceCents(db(), accountId)).toBe(1700);
    expect(await creatorBalance(db(), creator.user.id, scope)).toEqual({
      earned: 1700,
      owed: 0,
      transferred: 1700,
      held: 0,
      reversed: 0,
    });
    expect((await platformStats(db(), scope)).platformRevenue).toBeCloseTo(revenueBefore + 3, 5);
    const [token] = await tokensOf(orderId);
    expect((await redeemDownload(db(), token, new Date(), { count: false })).ok).toBe(true);

    const first = await refund(orderId, 2000);
    expect(first.applied).toBe(true);
    // The same total again (the webhook's echo, a replay) changes nothing.
    expect((await refund(orderId, 2000)).applied).toBe(false);
    await runPayoutJobs();
    await runPayoutJobs();

    const [refunded] = await sharesOf(orderId);
    expect(refunded).toMatchObject({
      status: "reversed",
      creator_reversed_cents: 1700,
      platform_reversed_cents: 300,
      transfer_reversed_cents: 1700,
    });
    expect(
      (await movementsOf(accountId)).map((movement) => [movement.kind, movement.amount_cents]),
    ).toEqual([
      ["transfer", 1700],
      ["reversal", 1700],
    ]);
    expect(await testAccountBalanceCents(db(), accountId)).toBe(0);
    expect(await creatorBalance(db(), creator.user.id, scope)).toEqual({
      earned: 0,
      owed: 0,
      transferred: 0,
      held: 0,
      reversed: 1700,
    });
    expect((await platformStats(db(), scope)).platformRevenue).toBeCloseTo(revenueBefore, 5);
    expect(await redeemDownload(db(), token, new Date())).toMatchObject({
      ok: false,
      reason: "refunded",
    });
    expect((await licenseOfOrderId(orderId))?.revokedAt).toBeTruthy();
    const order = await rowWhere("orders", "*", "id", orderId);
    expect(order).toMatchObject({ status: "refunded", refunded_cents: 2000 });
    const notices = await selectWhere("jobs", "payload", "kind", "mail.send");
    expect(notices.map((row) => JSON.parse(row.payload).subject)).toContain(
      "Your Selfie Studio order was refunded",
    );
  });

  it("cancels an owed share without moving money, and the creator's later onboarding does not send it", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { price: 10 });
    const orderId = await testCheckoutSale([listing.id], "refund-owed@example.com");
    await runPayoutJobs();
    expect(await sharesOf(orderId)).toMatchObject([{ status: "owed", transfer_id: null }]);
    await refund(orderId, 1000);
    const accountId = await onboardTestPayouts(creator.user);
    await runPayoutJobs();
    expect(await sharesOf(orderId)).toMatchObject([
      { status: "reversed", transfer_id: null, creator_reversed_cents: 850 },
    ]);
    expect(await movementsOf(accountId)).toEqual([]);
  });

  it("sends every owed share once the creator's account becomes ready", async () => {
    const creator = await createTestUser();
    const a = await createListing(creator.user.id, { price: 10 });
    const b = await createListing(creator.user.id, { price: 30 });
    const first = await testCheckoutSale([a.listing.id], "owed-1@example.com");
    const second = await testCheckoutSale([b.listing.id], "owed-2@example.com");
    await runPayoutJobs();
    expect(await creatorBalance(db(), creator.user.id, scope)).toMatchObject({
      owed: 3400,
      transferred: 0,
    });
    const accountId = await onboardTestPayouts(creator.user);
    await runPayoutJobs();
    expect(
      [...(await sharesOf(first)), ...(await sharesOf(second))].map((row) => row.status),
    ).toEqual(["transferred", "transferred"]);
    expect(await testAccountBalanceCents(db(), accountId)).toBe(3400);
    expect(await creatorBalance(db(), creator.user.id, scope)).toMatchObject({
      owed: 0,
      transferred: 3400,
      earned: 3400,
    });
  });
});

describe("the creator's notice of a refund", () => {
  async function mailsTo(email: string) {
    const rows = await selectWhere("jobs", "payload", "kind", "mail.send");
    return rows
      .map(
        (row) =>
          JSON.parse(row.payload) as { to: string; subject: string; text: string; html: string },
      )
      .filter(
        (mail) =>
          mail.to === email &&
          mail.subject === "A refund reversed your share of a sale on Selfie Studio",
      );
  }

  it("mails the creator the item and the amount of their share each refund reversed", async () => {
    const creator = await createTestUser({ firstName: "Cora" });
    const { listing } = await createListing(creator.user.id, { title: "Harbour Dawn", price: 20 });
    const orderId = await testCheckoutSale([listing.id], "refund-notice@example.com");
    await runPayoutJobs();
    const [item] = await selectWhere("order_items", "id", "order_id", orderId);

    await refund(orderId, 1000);
    const [partial] = await mailsTo(creator.user.email);
    expect(partial.subject).toBe("A refund reversed your share of a sale on Selfie Studio");
    expect(partial.text).toContain("Hello Cora,");
    expect(partial.text).toContain(`Harbour Dawn`);
    expect(partial.text).toContain(`your share reversed $8.50 (sale ${item.id})`);
    expect(partial.text).not.toContain(orderId);
    expect(partial.html).toContain("Harbour Dawn");
    expect(partial.html).toContain("$8.50");

    // The rest of the order: a second notice for the rest of the share.
    await refund(orderId, 2000);
    const notices = await mailsTo(creator.user.email);
    expect(notices).toHaveLength(2);
    expect(notices[1].text).toContain(`your share reversed $8.50 (sale ${item.id})`);
    // A replay reverses nothing and mails nothing.
    await refund(orderId, 2000);
    expect(await mailsTo(creator.user.email)).toHaveLength(2);
  });
});

describe("a partial refund", () => {
  it("takes back each item's part (85% from the creator), keeps the downloads, and a later full refund ends them", async () => {
    const cleo = await createTestUser();
    const dan = await createTestUser();
    const accountId = await onboardTestPayouts(cleo.user);
    const a = await createListing(cleo.user.id, { price: 25 });
    const b = await createListing(dan.user.id, { price: 10 });
    const orderId = await testCheckoutSale([a.listing.id, b.listing.id], "partial@example.com");
    await runPayoutJobs();

    await refund(orderId, 700);
    await runPayoutJobs();
    const shares = await sharesOf(orderId);
    const cleoShare = shares.find((row) => row.creator_id === cleo.user.id)!;
    const danShare = shares.find((row) => row.creator_id === dan.user.id)!;
    // $7 over $25 + $10: $5 and $2; the creators give back 85% of each.
    expect(cleoShare).toMatchObject({
      status: "transferred",
      creator_reversed_cents: 425,
      platform_reversed_cents: 75,
      transfer_reversed_cents: 425,
    });
    expect(danShare).toMatchObject({
      status: "owed",
      creator_reversed_cents: 170,
      platform_reversed_cents: 30,
    });
    expect(await testAccountBalanceCents(db(), accountId)).toBe(2125 - 425);
    const order = await rowWhere("orders", "*", "id", orderId);
    expect(order).toMatchObject({ status: "paid", refunded_cents: 700 });
    for (const token of await tokensOf(orderId))
      expect((await redeemDownload(db(), token, new Date(), { count: false })).ok).toBe(true);

    await refund(orderId, 3500);
    await runPayoutJobs();
    expect(
      (await sharesOf(orderId)).map((row) => [
        row.status,
        row.creator_reversed_cents + row.platform_reversed_cents,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ["reversed", 2500],
        ["reversed", 1000],
      ]),
    );
    expect(await testAccountBalanceCents(db(), accountId)).toBe(0);
    // Two reversals of Cleo's one transfer: the partial one and the rest.
    expect(
      (await movementsOf(accountId))
        .filter((movement) => movement.kind === "reversal")
        .map((movement) => movement.amount_cents)
        .sort(),
    ).toEqual([1700, 425].sort());
  });
});

describe("a dispute", () => {
  it("suspends the downloads and holds the shares; won, restores both and sends what was owed", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { price: 20 });
    const orderId = await testCheckoutSale([listing.id], "dispute-won@example.com");
    const now = new Date();
    await db()
      .transaction()
      .execute((trx) =>
        openDispute(trx, orderId, { id: "dp_1", status: "needs_response", amountCents: 2000 }, now),
      );
    const [token] = await tokensOf(orderId);
    expect(await redeemDownload(db(), token, now, { count: false })).toMatchObject({
      ok: false,
      reason: "suspended",
    });
    expect(await sharesOf(orderId)).toMatchObject([{ status: "held", held_from: "owed" }]);
    expect((await licenseOfOrderId(orderId))?.suspended).toBe(true);

    // Onboarding while held sends nothing.
    const accountId = await onboardTestPayouts(creator.user);
    await runPayoutJobs();
    expect(await movementsOf(accountId)).toEqual([]);
    expect(await creatorBalance(db(), creator.user.id, scope)).toMatchObject({
      held: 1700,
      owed: 0,
    });

    await db()
      .transaction()
      .execute((trx) =>
        closeDispute(trx, orderId, { id: "dp_1", status: "won", amountCents: 2000 }, now),
      );
    await runPayoutJobs();
    expect(await sharesOf(orderId)).toMatchObject([{ status: "transferred", held_from: null }]);
    expect(await redeemDownload(db(), token, now, { count: false })).toMatchObject({ ok: true });
    expect(await testAccountBalanceCents(db(), accountId)).toBe(1700);
  });

  it("lost, reverses the transferred shares and refunds the order", async () => {
    const creator = await createTestUser();
    const accountId = await onboardTestPayouts(creator.user);
    const { listing } = await createListing(creator.user.id, { price: 20 });
    const orderId = await testCheckoutSale([listing.id], "dispute-lost@example.com");
    await runPayoutJobs();
    const now = new Date();
    await db()
      .transaction()
      .execute((trx) =>
        openDispute(trx, orderId, { id: "dp_2", status: "needs_response", amountCents: 2000 }, now),
      );
    expect(await sharesOf(orderId)).toMatchObject([{ status: "held", held_from: "transferred" }]);
    await db()
      .transaction()
      .execute((trx) =>
        closeDispute(trx, orderId, { id: "dp_2", status: "lost", amountCents: 2000 }, now),
      );
    await runPayoutJobs();
    expect(await sharesOf(orderId)).toMatchObject([
      { status: "reversed", transfer_reversed_cents: 1700 },
    ]);
    expect(
      await firstRowWhere("orders", ["status", "refunded_cents", "dispute_status"], "id", orderId),
    ).toEqual({
      status: "refunded",
      refunded_cents: 2000,
      dispute_status: "lost",
    });
    expect(await testAccountBalanceCents(db(), accountId)).toBe(0);
  });
});
