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
 * Issue 7, item 4, payments: ten buyers have paid at Stripe; the server is
 * killed (SIGKILL) while their webhooks arrive, between payment and
 * fulfillment. After a restart Stripe retries its events and the buyers come
 * back to the success page: every order is fulfilled, none twice, and the
 * ledger adds up.
 */
const scratch = path.join(ROOT, "tests", ".tmp", "process-payment-crash");

test("a server killed between payment and fulfillment fulfils every order exactly once after restart", async () => {
  fs.rmSync(scratch, { recursive: true, force: true });
  const world = stripeWorld(scratch, 3698);
  let server = await world.start({ seed: true });
  try {
    const ids = await listingIds(server);
    const orders = [];
    for (let i = 0; i < 10; i++) {
      orders.push(
        await placeOrder(
          server,
          [ids[i % ids.length], ids[(i + 1) % ids.length]],
          `crash${i}@process.test`,
        ),
      );
    }
    const sessions = orders.map((order) => payAtStripe(world, order.sessionId));

    // The webhooks arrive, and the process dies while they are being handled.
    const inFlight = orders.map((order, i) =>
      deliverEvent(server, "checkout.session.completed", sessions[i], `evt_crash_${i}`).then(
        (response) => response.status,
        () => "cut off" as const,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 15));
    await server.kill();
    const answered = await Promise.all(inFlight);
    const orderIds = orders.map((order) => order.orderId);
    const atCrash = ledgerOf(server, orderIds);
    test
      .info()
      .annotations.push({
        type: "at the kill",
        description: `${atCrash.rows.filter((row) => row.status === "paid").length} of 10 orders paid; answers: ${answered.join(", ")}`,
      });
    // The kill landed before every order was fulfilled (otherwise this test would prove nothing).
    expect(
      atCrash.rows.filter((row) => row.status === "pending").length,
      `answers before the kill: ${answered.join(", ")}`,
    ).toBeGreaterThan(0);
    // Whatever was committed is whole: a paid order has all its grants and ledger rows.
    for (const row of atCrash.rows.filter((r) => r.status === "paid")) {
      expect(row).toEqual({ ...row, earnings: row.items, grants: row.items });
    }
    expect(atCrash.ledger).toBe(atCrash.revenue);

    server = await world.start({ seed: false });
    // Stripe retries the first five events (same ids); the other five buyers only come back to the success page.
    const recovery = await Promise.all(
      orders.map((order, i) =>
        i < 5
          ? deliverEvent(server, "checkout.session.completed", sessions[i], `evt_crash_${i}`)
          : successReturn(server, order.sessionId),
      ),
    );
    expect(recovery.map((response) => response.status)).toEqual(orders.map(() => 200));
    // And then everything once more: nothing changes the second time.
    await Promise.all(
      orders.map((order, i) =>
        Promise.all([
          deliverEvent(server, "checkout.session.completed", sessions[i], `evt_crash_${i}`),
          successReturn(server, order.sessionId),
        ]),
      ),
    );

    const after = ledgerOf(server, orderIds);
    for (const row of after.rows) {
      expect(row, `order ${row.order}`).toEqual({
        order: row.order,
        status: "paid",
        items: 2,
        earnings: 2,
        grants: 2,
      });
    }
    expect(after.ledger).toBe(after.revenue);
    expect(after.items).toBe(after.revenue);
    const consistency = server.inspect();
    expect(consistency.paidOrdersWithoutLedger).toBe(0);
    expect(consistency.paidOrdersWithoutGrants).toBe(0);
    expect(consistency.missingFiles).toEqual([]);
    expect(consistency.unreferencedFiles).toEqual([]);
    expect(consistency.integrity).toBe("ok");
  } finally {
    await server.stop();
  }
});
