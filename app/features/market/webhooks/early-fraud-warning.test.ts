import crypto from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import { StripeCheckoutProvider } from "~/infra/payments/stripe-checkout.server";
import { MAIL_JOB } from "~/features/mail/mail-job.server";
import {
  REFUND_PAYMENT_JOB,
  refundPaymentJobHandler,
} from "~/features/market/orders/suspended-seller-refunds.server";
import {
  chargeRefundedEvent,
  earlyFraudWarningEvent,
  stripeEvent,
  stripeMock,
} from "#tests/mocks/stripe";
import {
  createCheckoutSession,
  deliverStripeWebhook as deliver,
  payStripeSession,
  setUpStripeMock,
  stripeRequestsTo,
} from "#tests/setup/stripe";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { expectUnchanged, fingerprint } from "#tests/reliability/db-fingerprint";
import { rowWhere, selectWhere } from "#tests/setup/rows-where";

/**
 * Stripe's early fraud warnings (radar.early_fraud_warning.created) through
 * the real webhook route: real signatures made by the `stripe` library, and
 * the refund the warning causes sent through the real `stripe` library to
 * the msw mock of api.stripe.com. A warning refunds the charge's order in
 * full, at once and exactly once: replays, a second warning and Stripe's
 * charge.refunded echo change nothing more, and Stripe is asked once.
 */

const KEY = "sk_test_selfie_fraud_warnings";
const SECRET = "whsec_platform_fraud_warnings";
setUpStripeMock({ key: KEY, webhookSecret: SECRET });

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

/** Runs the queued refund jobs (the refund at Stripe) until none is left. */
async function runRefundJobs() {
  await new JobWorker({
    db: getDb(),
    handlers: {
      [REFUND_PAYMENT_JOB]: refundPaymentJobHandler({
        paymentProvider: (id) => (id === "stripe" ? new StripeCheckoutProvider(KEY) : null),
      }),
    },
    concurrency: 1,
    backoff: { baseMs: 0, maxMs: 0 },
    log: () => {},
  }).drain();
}

/** A Stripe sale of a new creator's 20-dollar listing, paid and fulfilled by its webhook. */
async function paidSale() {
  const creator = await createTestUser({ firstName: "Cleo" });
  const { listing } = await createListing(creator.user.id, { title: "Dock portrait", price: 20 });
  const response = await createCheckoutSession([{ imageId: listing.id, licenseType: "standard" }], {
    name: "Sam",
    email: `fraud-${crypto.randomBytes(4).toString("hex")}@example.com`,
  });
  const { sessionId } = (await response.json()) as { sessionId: string };
  const paid = await payStripeSession(sessionId, SECRET);
  await getDb().deleteFrom("jobs").execute();
  return { ...paid, creator };
}

const orderRow = (orderId: string) => rowWhere("orders", "*", "id", orderId);

const jobsOf = (kind: string) => selectWhere("jobs", ["payload", "status"], "kind", kind);

const refundsAtStripe = () => stripeRequestsTo("POST", /^\/v1\/refunds$/);

describe("radar.early_fraud_warning.created", () => {
  it("refunds the order in full at once, reverses the shares, tells the creator why, and refunds at Stripe once", async () => {
    const { order, chargeId, creator } = await paidSale();
    const warning = earlyFraudWarningEvent(chargeId, { fraudType: "made_with_stolen_card" });

    expect(await deliver(warning, SECRET)).toEqual({
      status: 200,
      body: { received: true, outcome: "processed" },
    });
    expect(await orderRow(order.id)).toMatchObject({
      status: "refunded",
      refunded_cents: 2000,
      refund_reason:
        "An early fraud warning from the card's issuer (made_with_stolen_card), so the payment was refunded at once",
    });
    const shares = await selectWhere(
      "earnings",
      ["status", "creator_reversed_cents"],
      "order_id",
      order.id,
    );
    expect(shares).toEqual([{ status: "reversed", creator_reversed_cents: 1700 }]);
    const mail = (await jobsOf(MAIL_JOB)).map(
      (job) => JSON.parse(job.payload) as { to: string; subject: string; text: string },
    );
    const toCreator = mail.find((message) => message.to === creator.user.email);
    expect(toCreator?.text).toContain(
      "Why: The card's issuer warned that the payment may be fraudulent (an early fraud warning), so it was refunded at once, before it could become a dispute.",
    );
    expect(mail.find((message) => message.to === order.customer_email)?.subject).toBe(
      "Your Selfie Studio order was refunded",
    );
    const audit = await selectWhere("audit_log", ["actor_id", "action"], "subject_id", order.id);
    expect(audit).toEqual([{ actor_id: "stripe", action: "order.refund" }]);

    // The money goes back through the refund job: one refund of the whole charge at Stripe.
    expect((await jobsOf(REFUND_PAYMENT_JOB)).map((job) => JSON.parse(job.payload))).toEqual([
      { orderId: order.id, fromCents: 0 },
    ]);
    expect(refundsAtStripe()).toEqual([]);
    await runRefundJobs();
    expect(refundsAtStripe()).toHaveLength(1);
    expect(refundsAtStripe()[0]).toMatchObject({ idempotencyKey: `refund-${order.id}-0` });
    expect(refundsAtStripe()[0].form.get("amount")).toBe("2000");
    expect(stripeMock.charges.get(chargeId)).toMatchObject({
      amount_refunded: 2000,
      refunded: true,
    });

    // A replay of the same event, a second warning of the charge and Stripe's echo of the refund change nothing more.
    const before = await fingerprint();
    expect(await deliver(warning, SECRET)).toEqual({
      status: 200,
      body: { received: true, outcome: "duplicate" },
    });
    expectUnchanged(before, await fingerprint(), "a replayed warning");
    expect(await deliver(earlyFraudWarningEvent(chargeId, { actionable: true }), SECRET)).toEqual({
      status: 200,
      body: { received: true, outcome: "ignored" },
    });
    expect(await deliver(chargeRefundedEvent(chargeId), SECRET)).toMatchObject({ status: 200 });
    // Only the two events were recorded.
    expectUnchanged(before, await fingerprint(), "a second warning and the refund's echo", [
      "webhook_events",
    ]);
    await runRefundJobs();
    expect(refundsAtStripe()).toHaveLength(1);
  });

  it("after a partial refund made in Stripe, refunds the rest, with the key the admin's refund of it would use", async () => {
    const { order, chargeId } = await paidSale();
    await new StripeCheckoutProvider(KEY).refund({
      orderId: order.id,
      paymentIntentId: order.payment_intent_id,
      amountCents: 500,
      idempotencyKey: "dashboard-partial",
    });
    expect(await deliver(chargeRefundedEvent(chargeId), SECRET)).toMatchObject({
      body: { outcome: "processed" },
    });
    expect(await orderRow(order.id)).toMatchObject({ status: "paid", refunded_cents: 500 });

    expect(await deliver(earlyFraudWarningEvent(chargeId), SECRET)).toMatchObject({
      body: { outcome: "processed" },
    });
    expect(await orderRow(order.id)).toMatchObject({ status: "refunded", refunded_cents: 2000 });
    await runRefundJobs();
    const [, rest] = refundsAtStripe();
    expect(rest).toMatchObject({ idempotencyKey: `refund-${order.id}-500` });
    expect(rest.form.get("amount")).toBe("1500");
    expect(stripeMock.charges.get(chargeId)).toMatchObject({ amount_refunded: 2000 });
  });

  it("leaves the order alone when Stripe says the warning is not actionable", async () => {
    const { order, chargeId } = await paidSale();
    const before = await fingerprint();
    expect(await deliver(earlyFraudWarningEvent(chargeId, { actionable: false }), SECRET)).toEqual({
      status: 200,
      body: { received: true, outcome: "ignored" },
    });
    expectUnchanged(before, await fingerprint(), "a warning that is not actionable", [
      "webhook_events",
    ]);
    expect(await orderRow(order.id)).toMatchObject({ status: "paid", refunded_cents: 0 });
  });

  it("refuses a malformed warning (400) and records nothing, so a corrected delivery is acted on", async () => {
    const { order, chargeId } = await paidSale();
    const before = await fingerprint();
    for (const object of [
      { id: "issfr_1", object: "radar.early_fraud_warning" },
      { id: "issfr_2", object: "radar.early_fraud_warning", charge: 42 },
      { id: "issfr_3", object: "radar.early_fraud_warning", charge: chargeId, actionable: "yes" },
      { object: "radar.early_fraud_warning", charge: chargeId },
    ]) {
      const answer = await deliver(
        stripeEvent("radar.early_fraud_warning.created", object),
        SECRET,
      );
      expect(answer.status).toBe(400);
    }
    expectUnchanged(before, await fingerprint(), "malformed warnings");
    expect(await orderRow(order.id)).toMatchObject({ status: "paid" });
  });
});
