import { sql } from "kysely";
import type { ShareStatus } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { queueOwedTransfersOfCreator } from "~/features/payouts/ledger/shares.server";

/**
 * What a ban does to a creator's money. While a creator is banned, none of
 * their shares is sent: every owed share is `held` (held_from 'owed'), a
 * transfer already queued finds it held and sends nothing, and nothing queues
 * a new one (queueing skips banned creators). Shares already transferred stay
 * transferred: the money is in the creator's account.
 *
 * Held for a ban and held for a dispute are one state; which applies is read
 * from the users and orders rows: a share stays held while its creator is
 * banned or its order is disputed, and is released when neither holds.
 * The admin's decision in between is a refund of the order, which reverses
 * the held share (it was never sent).
 */

/** The ban (in its transaction): the creator's owed shares are held. */
export async function holdSharesOfBannedCreator(trx: DB, creatorId: string): Promise<void> {
  await trx
    .updateTable("earnings")
    .set((eb) => ({ held_from: eb.ref("status"), status: "held" }))
    .where("creator_id", "=", creatorId)
    .where("status", "=", "owed")
    .execute();
}

/**
 * The unban (in its transaction): every held share of the creator whose order
 * is not disputed is what it was before, and the owed ones are queued for
 * transfer (to an active payout account). Orders refunded at payment because
 * the creator was banned stay refunded.
 */
export async function releaseSharesOfUnbannedCreator(
  trx: DB,
  creatorId: string,
  now: Date,
): Promise<void> {
  await trx
    .updateTable("earnings")
    .set({ status: sql<ShareStatus>`coalesce(held_from, 'owed')`, held_from: null })
    .where("creator_id", "=", creatorId)
    .where("status", "=", "held")
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("orders as o")
            .select("o.id")
            .whereRef("o.id", "=", "earnings.order_id")
            .where("o.status", "=", "disputed"),
        ),
      ),
    )
    .execute();
  await queueOwedTransfersOfCreator(trx, creatorId, now);
}
