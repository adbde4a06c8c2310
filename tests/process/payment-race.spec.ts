import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ROOT } from "./support/server-process";
import {
  deliverEvent,
  ledgerOf,
  listingIds,
  payAtStripe,
  placeOrder,
  stripeWorld,
  successReturn,
} from "./support/stripe-server";

/**
 * Delivery race: 50 deliveries at once over 10 paid Stripe sessions (each
 * session: the completed event twice, as Stripe retries it; an
 * async-payment-succeeded event; the buyer's success return; a payment-status
 * poll), all over HTTP to one real server. Exactly one fulfillment per order,
 * and the ledger adds up to the revenue.
 */
const scratch = path.join(ROOT, "tests", ".tmp", "process-race");

test("50 concurrent webhook deliveries and success returns over 10 sessions fulfil each order exactly once", async () => {
  fs.rmSync(scratch, { recursive: true, force: true });
  const world = stripeWorld(scratch, 3697);
  const server = await world.start({ seed: true });
  try {
    const ids = await listingIds(server);
    const orders = [];
    for (let i = 0; i < 10; i++) {
      // One to three different listings per order.
      const cart = [0, 1, 2].slice(0, 1 + (i % 3)).map((offset) => ids[(i + offset) % ids.length]);
      orders.push(await placeOrder(server, cart, `race${i}@process.test`));
    }
    expect(
      ledgerOf(
        server,
        orders.map((order) => order.orderId),
      ).rows.every((row) => row.status === "pending"),
    ).toBe(true);

    const deliveries: Array<() => Promise<Response>> = [];
    for (const [i, order] of orders.entries()) {
      const session = payAtStripe(world, order.sessionId);
      deliveries.push(
        () =>
          deliverEvent(server, "checkout.session.completed", session, `evt_race_completed_${i}`),
        () =>
          deliverEvent(server, "checkout.session.completed", session, `evt_race_completed_${i}`),
        () =>
          deliverEvent(
            server,
            "checkout.session.async_payment_succeeded",
            session,
            `evt_race_async_${i}`,
          ),
        () => successReturn(server, order.sessionId),
        () => server.fetch(`/api/payment-status/${encodeURIComponent(order.sessionId)}`),
      );
    }
    expect(deliveries).toHaveLength(50);
    // Interleaved so that deliveries for the same session are not neighbours.
    const shuffled = deliveries
      .map((run, i) => ({ run, key: (i * 37) % 50 }))
      .sort((a, b) => a.key - b.key);
    const answers = await Promise.all(shuffled.map(({ run }) => run()));
    const statuses = answers.map((answer) => answer.status);
    expect(
      statuses.filter((status) => status !== 200),
      "every delivery and return answered 200",
    ).toEqual([]);

    const outcomes = await Promise.all(
      answers
        .filter((answer) => answer.url.includes("/api/webhooks/"))
        .map(async (answer) => ((await answer.json()) as { outcome: string }).outcome),
    );
    // Each of the 20 distinct events is processed once; the 10 retries are recognised as duplicates.
    expect(outcomes.filter((outcome) => outcome === "processed")).toHaveLength(20);
    expect(outcomes.filter((outcome) => outcome === "duplicate")).toHaveLength(10);

    const ledger = ledgerOf(
      server,
      orders.map((order) => order.orderId),
    );
    for (const row of ledger.rows) {
      expect(row, `order ${row.order}`).toEqual({
        order: row.order,
        status: "paid",
        items: row.items,
        earnings: row.items,
        grants: row.items,
      });
    }
    const expectedItems = orders.reduce((sum, order) => sum + order.listingIds.length, 0);
    expect(ledger.rows.reduce((sum, row) => sum + row.items, 0)).toBe(expectedItems);
    expect(ledger.revenue).toBeGreaterThan(0);
    expect(ledger.ledger, "creator shares plus platform fees equal the revenue").toBe(
      ledger.revenue,
    );
    expect(ledger.items).toBe(ledger.revenue);
    expect(server.inspect().paidOrdersWithoutLedger).toBe(0);

    // What the buyer sees agrees: every order complete, one download per item.
    for (const order of orders) {
      const status = await server.fetch(
        `/api/payment-status/${encodeURIComponent(order.sessionId)}`,
      );
      const body = (await status.json()) as { success: boolean; downloads: unknown[] };
      expect(body.success).toBe(true);
      expect(body.downloads).toHaveLength(order.listingIds.length);
    }
  } finally {
    await server.stop();
  }
});
