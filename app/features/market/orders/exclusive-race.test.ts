import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { createPendingOrder } from "~/features/market/orders/orders.server";
import {
  fulfilAtOnce,
  orderStatuses,
  queuedRefundPayloads,
  withTwoProcesses,
} from "#tests/setup/concurrent-fulfilment";
import { rowsWhere } from "#tests/setup/rows-where";

/**
 * Two buyers racing for one Exclusive licence (decision 101), on PostgreSQL
 * where the payments really run at once (two processes, each its own pool):
 * exactly one keeps it; the other's payment is refunded at once, exactly once.
 */

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onPostgres)("an Exclusive licence paid twice at once (PostgreSQL)", () => {
  it("lets exactly one of two (and of eight) racing Exclusive payments keep it and refunds each other once", async () => {
    await withTwoProcesses(async (processes) => {
      for (const buyers of [2, 8]) {
        const creator = await createTestUser();
        const { listing } = await createListing(creator.user.id, {
          price: 20,
          exclusivePrice: 500,
        });
        const orders = await Promise.all(
          Array.from({ length: buyers }, (_, index) =>
            createPendingOrder(getDb(), {
              provider: "test",
              customer: { name: "Racer", email: `racer${index}@example.com` },
              listingIds: [listing.id],
              licenseTypes: { [listing.id]: "exclusive" },
              now: new Date(),
            }),
          ),
        );
        const kinds = await fulfilAtOnce(processes, orders);
        expect(kinds).toEqual([
          "fulfilled",
          ...Array.from({ length: buyers - 1 }, () => "refunded-exclusive-taken"),
        ]);
        const rows = await orderStatuses(orders);
        expect(rows.filter((row) => row.status === "paid")).toHaveLength(1);
        for (const row of rows.filter((row) => row.status !== "paid"))
          expect(row).toMatchObject({ status: "refunded", refunded_cents: 50000 });
        const refundJobs = await queuedRefundPayloads();
        for (const { order } of orders) {
          const paid = rows.find((row) => row.id === order.id)!.status === "paid";
          expect(refundJobs.filter((job) => job.payload.includes(order.id))).toHaveLength(
            paid ? 0 : 1,
          );
        }
        // The ledger: every share of the refunded orders is reversed, the winner's stands.
        const earnings = await rowsWhere("earnings", "listing_id", listing.id);
        expect(earnings).toHaveLength(buyers);
        for (const share of earnings) {
          expect(share.amount_cents + share.platform_fee_cents).toBe(50000);
          const won = rows.find((row) => row.id === share.order_id)!.status === "paid";
          expect(share.creator_reversed_cents + share.platform_reversed_cents).toBe(
            won ? 0 : 50000,
          );
        }
      }
    });
  });
});
