import { fulfillOrder } from "~/features/market/orders/fulfillment.server";
import { REFUND_PAYMENT_JOB } from "~/features/market/orders/suspended-seller-refunds.server";
import { getConfig } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { getDb, openDatabase } from "~/infra/db.server";
import { selectWhere } from "./rows-where";

/** Runs `race` with two databases of their own pools (as two server processes have), closed after. */
export async function withTwoProcesses(race: (processes: DB[]) => Promise<void>) {
  const processes = [0, 1].map(() => openDatabase(getConfig().DATABASE_URL!));
  try {
    await race(processes);
  } finally {
    await Promise.all(processes.map((db) => db.destroy()));
  }
}

/**
 * For races between payments: the orders fulfilled all at once, alternately
 * through each of `processes` (databases of their own pools, as two server
 * processes have), answering each fulfilment's outcome, sorted.
 */
export async function fulfilAtOnce(processes: DB[], orders: { order: { id: string } }[]) {
  const outcomes = await Promise.all(
    orders.map(({ order }, index) =>
      fulfillOrder(processes[index % processes.length], order.id, {}, new Date()),
    ),
  );
  return outcomes.map((outcome) => outcome.outcome).sort();
}

/** What became of each of the orders: its status and what was refunded. */
export function orderStatuses(orders: { order: { id: string } }[]) {
  const ids = orders.map(({ order }) => order.id);
  return getDb()
    .selectFrom("orders")
    .select(["id", "status", "refunded_cents"])
    .where("id", "in", ids)
    .execute();
}

/** The payloads of the payment refunds queued so far. */
export function queuedRefundPayloads() {
  return selectWhere("jobs", "payload", "kind", REFUND_PAYMENT_JOB);
}
