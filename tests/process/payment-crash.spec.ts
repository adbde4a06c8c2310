import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { CrashPoint } from "~/infra/crash-points.server";
import { expectPaidOrdersWhole } from "./support/purchases";
import { ROOT } from "./support/server-process";
import {
  deliverEvent,
  ledgerOf,
  listingIds,
  payAtStripe,
  placeOrder,
  stripeWorld,
  successReturn,
  type PlacedOrder,
} from "./support/stripe-server";

/**
 * Crash test, payments (docs/decisions/009-crash-points.md): ten buyers have
 * paid at Stripe; the server dies (SIGKILL) while their webhooks arrive,
 * between payment and fulfillment: at a random moment, and exactly at each
 * crash point of the fulfillment path (app/infra/crash-points.server.ts).
 * After a restart Stripe retries half of the events and the other half of the
 * buyers only come back to the success page: every order is fulfilled, none
 * twice, and the ledger adds up.
 */
const variants: Array<{ name: string; crashPoint?: CrashPoint; port: number }> = [
  { name: "killed from outside while the webhooks are handled", port: 3698 },
  {
    name: "dead when the webhook's event id is recorded",
    crashPoint: "webhook-event-recorded",
    port: 3699,
  },
  { name: "dead when the order is marked paid", crashPoint: "order-marked-paid", port: 3700 },
];

for (const variant of variants) {
  test(`a server ${variant.name} fulfils every order exactly once after restart`, async () => {
    const scratch = path.join(ROOT, "tests", ".tmp", `process-payment-crash-${variant.port}`);
    fs.rmSync(scratch, { recursive: true, force: true });
    const world = stripeWorld(scratch, variant.port);
    let server = await world.start({
      seed: true,
      env: variant.crashPoint ? { SELFIE_CRASH_POINT: variant.crashPoint } : {},
    });
    try {
      const ids = await listingIds(server);
      const orders: PlacedOrder[] = [];
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

      // The webhooks arrive, and the process dies while they are being handled. At a crash point the
      // first order's event kills it; the deliveries after it find no server (Stripe will retry them).
      const deliver = (i: number) =>
        deliverEvent(server, "checkout.session.completed", sessions[i], `evt_crash_${i}`).then(
          (response) => response.status,
          () => "cut off" as const,
        );
      const inFlight: Array<Promise<number | "cut off">> = [];
      if (variant.crashPoint) {
        inFlight.push(deliver(0));
        await server.exited(20_000);
        for (let i = 1; i < orders.length; i++) inFlight.push(deliver(i));
      } else {
        for (let i = 0; i < orders.length; i++) inFlight.push(deliver(i));
        await new Promise((resolve) => setTimeout(resolve, 15));
        await server.kill();
      }
      const answered = await Promise.all(inFlight);
      const orderIds = orders.map((order) => order.orderId);
      const atCrash = ledgerOf(server, orderIds);
      const paidAtCrash = atCrash.rows.filter((row) => row.status === "paid").length;
      test.info().annotations.push({
        type: "at the kill",
        description: `${paidAtCrash} of 10 orders paid; answers: ${answered.join(", ")}`,
      });
      // The kill landed before every order was fulfilled (otherwise this test would prove nothing).
      expect(
        atCrash.rows.length - paidAtCrash,
        `answers before the kill: ${answered.join(", ")}`,
      ).toBeGreaterThan(0);
      // Whatever was committed is whole: a paid order has all its grants and ledger rows.
      for (const row of atCrash.rows.filter((r) => r.status === "paid")) {
        expect(row).toEqual({ ...row, earnings: row.items, grants: row.items });
      }
      expect(atCrash.ledger).toBe(atCrash.revenue);

      server = await world.start({ seed: false });
      // The first five buyers closed their tab: only Stripe's retries of their events (same ids) come.
      // The other five events are never retried (say the endpoint was misconfigured): only those buyers' success returns come.
      // Each twice, at once: the second time changes nothing.
      const recover = (order: PlacedOrder, i: number) =>
        i < 5
          ? deliverEvent(server, "checkout.session.completed", sessions[i], `evt_crash_${i}`)
          : successReturn(server, order.sessionId);
      const recovery = await Promise.all([...orders.map(recover), ...orders.map(recover)]);
      expect(recovery.map((response) => response.status)).toEqual(
        [...orders, ...orders].map(() => 200),
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
      expectPaidOrdersWhole(server);
    } finally {
      await server.stop();
    }
  });
}
