import type { DB } from "~/infra/db.server";
import { forgetTestAccountEmail } from "~/infra/payouts/test-payouts.server";
import { runTransfer, type PayoutJobDeps } from "~/features/payouts/transfers/payout-jobs.server";
import { queueOwedTransfersOfCreator } from "~/features/payouts/ledger/shares.server";

/**
 * Payouts' part of an account erasure: money owed to the creator is sent
 * first, then the link to their payout account goes.
 *
 * At once (in the erasure's transaction): every owed share whose provider
 * account is active is queued for transfer (transfer jobs are not called off
 * by the erasure; the account stays until they have run).
 *
 * Then (the erasure job): each share still owed is sent now, through the same
 * transfer as its job (the same idempotency key, so a job running at the same
 * moment moves the money once). A share that cannot be sent (no active
 * account, or the provider refused) is `held` (held_from 'owed') and stays on
 * the platform's books: the admin's Payouts table lists it against the
 * erased account, for the admin to settle. Then the payout account link is
 * deleted, and the built-in test provider's own record of the account
 * forgets the creator's email. Ledger rows stay whole: they are the
 * bookkeeping of sales, refunds and transfers.
 */

export async function queueTransfersOfErasedCreator(
  trx: DB,
  creatorId: string,
  now: Date,
): Promise<void> {
  await queueOwedTransfersOfCreator(trx, creatorId, now);
}

export async function settlePayoutsOfErasedCreator(
  deps: PayoutJobDeps,
  db: DB,
  { userId, now, log }: { userId: string; now: () => Date; log?: (line: string) => void },
): Promise<void> {
  const owed = await db
    .selectFrom("earnings")
    .select("id")
    .where("creator_id", "=", userId)
    .where("status", "=", "owed")
    .where("transfer_id", "is", null)
    .execute();
  for (const share of owed) {
    try {
      await runTransfer(deps, { earningId: share.id }, { db, now });
    } catch (error) {
      log?.(
        `erasure of ${userId}: share ${share.id} could not be sent and is held: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  await db
    .updateTable("earnings")
    .set({ status: "held", held_from: "owed" })
    .where("creator_id", "=", userId)
    .where("status", "=", "owed")
    .execute();
  const accounts = await db
    .selectFrom("payout_accounts")
    .select(["provider", "account_id"])
    .where("user_id", "=", userId)
    .execute();
  for (const account of accounts) {
    if (account.provider === "test") {
      await forgetTestAccountEmail(db, account.account_id, userId);
    }
  }
  await db.deleteFrom("payout_accounts").where("user_id", "=", userId).execute();
}
