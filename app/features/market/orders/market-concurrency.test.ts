import { describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { getDb, openDatabase } from "~/infra/db.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { checkoutEvent, stripeEvent, stripeMock } from "#tests/mocks/stripe";
import { createCheckoutSession, deliverStripeWebhook, setUpStripeMock } from "#tests/setup/stripe";
import { MAIL_JOB } from "~/features/mail/public.server";
import { checkoutSessionHash } from "~/features/market/orders/orders.server";
import { grantToken, redeemDownload } from "~/features/market/orders/download-grants.server";
import { rowWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

/**
 * What SQLite's single writer gave the market for free, shown on PostgreSQL
 * with many callers at once: the route's pool has connections of its own, and
 * the downloads run on three Kysely instances (three processes).
 *
 * - A checkout session's payment is fulfilled exactly once however many
 *   deliveries of its events arrive together (webhook_events' primary key, and
 *   the order's conditional move to 'paid').
 * - The refunded total counts each refund and each undone refund once
 *   (the order's row is held while a refund is recorded or undone).
 * - A grant gives exactly the downloads it has left (one conditional UPDATE).
 */

const WEBHOOK_SECRET = "whsec_test_secret_for_selfie_studio";
setUpStripeMock({ key: "sk_test_selfie_studio", webhookSecret: WEBHOOK_SECRET });

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

async function paidCheckout(buyerEmail: string, prices: number[]) {
  const creator = await createTestUser();
  const listings = await Promise.all(
    prices.map((price) => createListing(creator.user.id, { price })),
  );
  const response = await createCheckoutSession(
    listings.map(({ listing }) => ({ imageId: listing.id, licenseType: "standard", price: 1 })),
    { name: "Concurrent Buyer", email: buyerEmail },
  );
  expect(response.status).toBe(200);
  const { sessionId } = (await response.json()) as { sessionId: string };
  const session = stripeMock.complete(sessionId);
  const orderOf = () =>
    rowWhere("orders", "*", "checkout_session_hash", checkoutSessionHash(sessionId));
  return { session, orderOf };
}

async function deliver(payload: string): Promise<{ status: number; outcome?: string }> {
  const { status, body } = await deliverStripeWebhook(payload, WEBHOOK_SECRET);
  return { status, outcome: body.outcome };
}

async function mailsTo(email: string): Promise<number> {
  const jobs = await selectWhere("jobs", "payload", "kind", MAIL_JOB);
  return jobs.filter((job) => (JSON.parse(job.payload) as { to?: string }).to === email).length;
}

describe.skipIf(!onPostgres)("the market under concurrent callers (PostgreSQL)", () => {
  it("fulfils once under 50 concurrent deliveries of the same checkout.session.completed, and again once when other events of the session race it", async () => {
    const buyer = "fifty-deliveries@example.com";
    const { session, orderOf } = await paidCheckout(buyer, [19.99, 5]);
    const completed = checkoutEvent("checkout.session.completed", session);

    const same = await Promise.all(Array.from({ length: 50 }, () => deliver(completed)));
    expect(same.every((answer) => answer.status === 200)).toBe(true);
    expect(same.filter((answer) => answer.outcome === "processed")).toHaveLength(1);
    expect(same.filter((answer) => answer.outcome === "duplicate")).toHaveLength(49);

    const order = await orderOf();
    expect(order.status).toBe("paid");
    const count = async (table: "earnings" | "download_grants") =>
      (await getDb().selectFrom(table).select("id").where("order_id", "=", order.id).execute())
        .length;
    expect(await count("earnings")).toBe(2);
    expect(await count("download_grants")).toBe(2);
    expect(await mailsTo(buyer)).toBe(1);

    // Another session: 50 different events of it at once (each its own id), all of which may fulfil.
    const second = await paidCheckout("fifty-events@example.com", [7]);
    const events = Array.from({ length: 50 }, (_, n) =>
      checkoutEvent(
        n % 2 === 0 ? "checkout.session.completed" : "checkout.session.async_payment_succeeded",
        second.session,
      ),
    );
    const answers = await Promise.all(events.map((payload) => deliver(payload)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const secondOrder = await second.orderOf();
    expect(secondOrder.status).toBe("paid");
    expect(await mailsTo("fifty-events@example.com")).toBe(1);
    const grants = await selectWhere("download_grants", "id", "order_id", secondOrder.id);
    expect(grants).toHaveLength(1);
  });

  it("counts every refund and undone refund once when 50 refund webhooks race (the refunded total never over-counts or loses an amount)", async () => {
    const buyer = "racing-refunds@example.com";
    const { session, orderOf } = await paidCheckout(buyer, [40, 10]);
    const completed = checkoutEvent("checkout.session.completed", session);
    expect((await deliver(completed)).outcome).toBe("processed");
    const order = await orderOf();
    expect(order.total_cents).toBe(5000);
    const chargeId = "ch_concurrent_refunds";
    const charge = (amountRefunded: number) => ({
      id: chargeId,
      object: "charge",
      amount: order.total_cents,
      amount_refunded: amountRefunded,
      refunded: amountRefunded === order.total_cents,
      currency: "usd",
      payment_intent: order.payment_intent_id,
      metadata: { order_id: order.id },
    });
    const failedRefund = (n: number, amount: number) => ({
      id: `re_failed_${n}`,
      object: "refund",
      status: "failed",
      amount,
      charge: chargeId,
      payment_intent: order.payment_intent_id,
      metadata: { order_id: order.id },
    });
    // Refunded totals that grow, in a shuffled order, and refunds that failed (each undone once).
    const payloads: string[] = [];
    for (let n = 1; n <= 40; n++)
      payloads.push(stripeEvent("charge.refunded", charge(Math.min(order.total_cents, n * 97))));
    for (let n = 1; n <= 10; n++)
      payloads.push(stripeEvent("charge.refund.updated", failedRefund(n, 30 + n)));
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = payloads.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [payloads[i], payloads[j]] = [payloads[j], payloads[i]];
    }

    const answers = await Promise.all(payloads.map((payload) => deliver(payload)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);

    const after = await orderOf();
    const audit = await selectWhere("audit_log", ["action", "detail"], "subject_id", order.id);
    const sum = (action: string) =>
      audit
        .filter((row) => row.action === action)
        .reduce(
          (total, row) => total + (JSON.parse(row.detail!) as { amountCents: number }).amountCents,
          0,
        );
    const refunded = sum("order.refund");
    const undone = sum("order.refund_undone");
    expect(refunded).toBeGreaterThan(0);
    // Each recorded amount is counted from the total the one before stored.
    expect(refunded - undone).toBe(after.refunded_cents);
    expect(after.refunded_cents).toBeGreaterThanOrEqual(0);
    expect(after.refunded_cents).toBeLessThanOrEqual(order.total_cents);
    // The shares' reversed parts add up to the order's refunded total.
    const shares = await selectWhere(
      "earnings",
      ["creator_reversed_cents", "platform_reversed_cents"],
      "order_id",
      order.id,
    );
    expect(
      shares.reduce(
        (total, row) => total + row.creator_reversed_cents + row.platform_reversed_cents,
        0,
      ),
    ).toBe(after.refunded_cents);
    // One refund notice per recorded refund, each with its own amount.
    expect(await mailsTo(buyer)).toBe(
      1 + audit.filter((row) => row.action === "order.refund").length,
    );
  });

  it("gives exactly the downloads a grant has left to 50 concurrent downloads from three processes", async () => {
    const { session, orderOf } = await paidCheckout("racing-downloads@example.com", [12]);
    expect((await deliver(checkoutEvent("checkout.session.completed", session))).outcome).toBe(
      "processed",
    );
    const order = await orderOf();
    const grant = await rowWhere("download_grants", "*", "order_id", order.id);
    await updateWhere("download_grants", { max_downloads: 20, downloads_used: 7 }, "id", grant.id);
    const left = 13;
    const processes: DB[] = [0, 1, 2].map(() => openDatabase(getConfig().DATABASE_URL!));
    try {
      const token = grantToken(grant.id);
      const now = new Date();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, n) => redeemDownload(processes[n % 3], token, now)),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(left);
      expect(results.filter((result) => !result.ok && result.reason === "exhausted")).toHaveLength(
        50 - left,
      );
      const spent = results.flatMap((result) => (result.ok ? [result.downloadsLeft] : []));
      expect(spent.sort((a, b) => a - b)).toEqual(Array.from({ length: left }, (_, n) => n));
      const stored = await rowWhere("download_grants", "downloads_used", "id", grant.id);
      expect(stored.downloads_used).toBe(20);
    } finally {
      await Promise.all(processes.map((db) => db.destroy()));
    }
  });
});
