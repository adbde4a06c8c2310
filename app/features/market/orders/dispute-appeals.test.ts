import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { StripeCheckoutProvider } from "~/infra/payments/stripe-checkout.server";
import { createListing } from "#tests/setup/market";
import { runPayoutJobs, sharesOf } from "#tests/setup/payouts";
import {
  chargeRefundedEvent,
  disputeEvent,
  refundFailedEvent,
  stripeMock,
} from "#tests/mocks/stripe";
import {
  creatorWithStripeAccount,
  deliverStripeWebhook,
  paidStripeSale,
  setUpStripePayoutMock,
  stripePayoutDeps,
  stripeRequestsTo,
} from "#tests/setup/stripe";
import { rowWhere } from "#tests/setup/rows-where";

/**
 * Disputes and refunds as Stripe has them now, through signed webhooks and the
 * real `stripe` library against the mock: an appeal of a lost dispute keeps
 * the funds withheld; won on appeal (charge.dispute.funds_reinstated) the
 * order and the shares come back once; a refund that fails afterwards
 * (charge.refund.updated, status failed) is undone once.
 */
const {
  key: KEY,
  webhookSecret: WEBHOOK_SECRET,
  connectSecret: CONNECT_SECRET,
} = setUpStripePayoutMock("appeals");

const runJobs = () => runPayoutJobs(stripePayoutDeps(KEY));
const requestsTo = stripeRequestsTo;

async function deliver(payload: string, secret = WEBHOOK_SECRET) {
  const { status, body } = await deliverStripeWebhook(payload, secret);
  expect(status).toBe(200);
  return body.outcome;
}

const onboardedCreator = () => creatorWithStripeAccount({ connectSecret: CONNECT_SECRET });

/** A paid Stripe sale of one 30-dollar image whose share (25.50) was transferred. */
async function transferredSale(email: string) {
  const creator = await onboardedCreator();
  const { listing } = await createListing(creator.user.id, { price: 30 });
  const { session, order, chargeId } = await paidStripeSale([listing.id], email, WEBHOOK_SECRET);
  await runJobs();
  expect(await sharesOf(order.id)).toMatchObject([
    { status: "transferred", transferred_cents: 2550 },
  ]);
  return { creator, order, chargeId, paymentIntentId: session.payment_intent! };
}

/** The order's refund and dispute columns: its status, its dispute's, and `cents` both refunded and lost. */
async function expectOrderState(
  orderId: string,
  status: string,
  disputeStatus: string,
  cents: number,
) {
  expect(await orderState(orderId)).toEqual({
    status,
    dispute_status: disputeStatus,
    refunded_cents: cents,
    dispute_lost_cents: cents,
  });
}

const orderState = (orderId: string) =>
  rowWhere(
    "orders",
    ["status", "dispute_status", "refunded_cents", "dispute_lost_cents"],
    "id",
    orderId,
  );
const transfersTo = (accountId: string) =>
  [...stripeMock.transfers.values()].filter((transfer) => transfer.destination === accountId);

type DisputeStatus = Parameters<typeof disputeEvent>[1]["status"];

/** A dispute opened on the charge (needs response), then closed with `status`. */
async function disputeClosed(chargeId: string, status: DisputeStatus) {
  await deliver(disputeEvent("charge.dispute.created", { chargeId, status: "needs_response" }));
  await deliver(disputeEvent("charge.dispute.closed", { chargeId, status }));
}

/** Refunds `amountCents` of a transferred sale through Stripe, under its own idempotency key. */
const refundSale = (
  sale: { order: { id: string }; paymentIntentId: string },
  amountCents: number,
  idempotencyKey = `refund-${sale.order.id}`,
) =>
  new StripeCheckoutProvider(KEY).refund({
    orderId: sale.order.id,
    paymentIntentId: sale.paymentIntentId,
    amountCents,
    idempotencyKey,
  });

/** A transferred sale refunded by `amountCents`, the refund reported by Stripe (charge.refunded). */
async function refundedSale(email: string, amountCents: number) {
  const sale = await transferredSale(email);
  const { refundId } = await refundSale(sale, amountCents);
  await deliver(chargeRefundedEvent(sale.chargeId));
  return { ...sale, refundId };
}

describe("a dispute's appeal", () => {
  it("keeps the funds withheld while appealed; won on appeal, the order and the share come back once, however often Stripe says so", async () => {
    const { creator, order, chargeId } = await transferredSale("appeal@example.com");
    await disputeClosed(chargeId, "lost");
    await runJobs();
    await expectOrderState(order.id, "refunded", "lost", 3000);
    expect(await sharesOf(order.id)).toMatchObject([
      { status: "reversed", creator_reversed_cents: 2550, transfer_reversed_cents: 2550 },
    ]);

    // Appealed: nothing moves while it lasts.
    for (const status of ["appeal_needs_response", "appeal_under_review"] as const) {
      expect(await deliver(disputeEvent("charge.dispute.updated", { chargeId, status }))).toBe(
        "processed",
      );
      await runJobs();
      await expectOrderState(order.id, "refunded", status, 3000);
      expect(await sharesOf(order.id)).toMatchObject([
        { status: "reversed", creator_reversed_cents: 2550 },
      ]);
    }
    expect(transfersTo(creator.accountId)).toHaveLength(1);

    // Won on appeal: funds reinstated.
    const reinstated = disputeEvent("charge.dispute.funds_reinstated", { chargeId, status: "won" });
    expect(await deliver(reinstated)).toBe("processed");
    await runJobs();
    await expectOrderState(order.id, "paid", "won", 0);
    expect(await sharesOf(order.id)).toMatchObject([
      {
        status: "transferred",
        creator_reversed_cents: 0,
        platform_reversed_cents: 0,
        reinstated_cents: 2550,
      },
    ]);
    const sent = transfersTo(creator.accountId);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({
      amount: 2550,
      currency: "usd",
      transfer_group: order.id,
      metadata: { kind: "reinstatement-2550" },
    });

    // The same event again, another event saying so, and the dispute closed as won: nothing more.
    expect(await deliver(reinstated)).toBe("duplicate");
    expect(
      await deliver(disputeEvent("charge.dispute.funds_reinstated", { chargeId, status: "won" })),
    ).toBe("processed");
    expect(await deliver(disputeEvent("charge.dispute.closed", { chargeId, status: "won" }))).toBe(
      "processed",
    );
    await runJobs();
    expect(await orderState(order.id)).toMatchObject({ status: "paid", refunded_cents: 0 });
    expect(transfersTo(creator.accountId)).toHaveLength(2);
    expect(requestsTo("POST", /\/reversals$/)).toHaveLength(1);
    const audit = await getDb()
      .selectFrom("audit_log")
      .select("action")
      .where("subject_id", "=", order.id)
      .where("action", "=", "order.refund_undone")
      .execute();
    expect(audit).toHaveLength(1);
  });

  it("an appeal status on a dispute still open releases nothing", async () => {
    const { order, chargeId } = await transferredSale("appeal-open@example.com");
    await disputeClosed(chargeId, "appeal_under_review");
    expect(await orderState(order.id)).toMatchObject({
      status: "disputed",
      dispute_status: "appeal_under_review",
      refunded_cents: 0,
    });
    expect(await sharesOf(order.id)).toMatchObject([{ status: "held", held_from: "transferred" }]);
  });

  it("funds reinstated after a dispute won outright give nothing back twice", async () => {
    const { creator, order, chargeId } = await transferredSale("won-outright@example.com");
    await disputeClosed(chargeId, "won");
    await deliver(disputeEvent("charge.dispute.funds_reinstated", { chargeId, status: "won" }));
    await runJobs();
    await expectOrderState(order.id, "paid", "won", 0);
    expect(await sharesOf(order.id)).toMatchObject([
      { status: "transferred", reinstated_cents: 0 },
    ]);
    expect(transfersTo(creator.accountId)).toHaveLength(1);
  });
});

describe("a refund that fails afterwards", () => {
  it("is undone once: the order is paid again and the reversed share is sent back once", async () => {
    const { creator, order, refundId } = await refundedSale("refund-fails@example.com", 3000);
    await runJobs();
    expect(await orderState(order.id)).toMatchObject({ status: "refunded", refunded_cents: 3000 });
    expect(await sharesOf(order.id)).toMatchObject([
      { status: "reversed", transfer_reversed_cents: 2550 },
    ]);

    const failed = refundFailedEvent(refundId);
    expect(await deliver(failed)).toBe("processed");
    await runJobs();
    expect(await orderState(order.id)).toMatchObject({ status: "paid", refunded_cents: 0 });
    expect(await sharesOf(order.id)).toMatchObject([
      { status: "transferred", creator_reversed_cents: 0, reinstated_cents: 2550 },
    ]);

    expect(await deliver(failed)).toBe("duplicate");
    expect(await deliver(refundFailedEvent(refundId, undefined, "refund.failed"))).toBe(
      "processed",
    );
    await runJobs();
    expect(await orderState(order.id)).toMatchObject({ status: "paid", refunded_cents: 0 });
    expect(transfersTo(creator.accountId).map((transfer) => transfer.amount)).toEqual([2550, 2550]);
    expect(
      await getDb().selectFrom("undone_refunds").select(["refund_id", "amount_cents"]).execute(),
    ).toEqual([{ refund_id: refundId, amount_cents: 3000 }]);
  });

  it("failing before its reversal ran, takes nothing back and sends nothing back", async () => {
    const { creator, order, refundId } = await refundedSale("refund-fails-early@example.com", 1000);
    expect(await sharesOf(order.id)).toMatchObject([
      { status: "transferred", creator_reversed_cents: 850 },
    ]);
    await deliver(refundFailedEvent(refundId));
    await runJobs();
    expect(await orderState(order.id)).toMatchObject({ status: "paid", refunded_cents: 0 });
    expect(await sharesOf(order.id)).toMatchObject([
      {
        status: "transferred",
        creator_reversed_cents: 0,
        platform_reversed_cents: 0,
        transfer_reversed_cents: 0,
        reinstated_cents: 0,
      },
    ]);
    expect(requestsTo("POST", /\/reversals$/)).toHaveLength(0);
    expect(transfersTo(creator.accountId)).toHaveLength(1);
  });

  it("one of two partial refunds failing, reported twice, gives back that refund only", async () => {
    const sale = await transferredSale("two-refunds@example.com");
    const { order, chargeId } = sale;
    const first = await refundSale(sale, 1000, `refund-${order.id}-1`);
    await refundSale(sale, 1000, `refund-${order.id}-2`);
    await deliver(chargeRefundedEvent(chargeId));
    expect(await orderState(order.id)).toMatchObject({ refunded_cents: 2000 });
    await deliver(refundFailedEvent(first.refundId));
    await deliver(refundFailedEvent(first.refundId, undefined, "refund.failed"));
    expect(await orderState(order.id)).toMatchObject({ status: "paid", refunded_cents: 1000 });
    expect(await sharesOf(order.id)).toMatchObject([
      { creator_reversed_cents: 850, platform_reversed_cents: 150 },
    ]);
  });
});
