import type Stripe from "stripe";
import type { PayoutProviderId } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { accountStateOf } from "~/infra/payouts/stripe-connect.server";
import { applyAccountState } from "~/features/payouts/transfers/payout-accounts.server";

/**
 * What payouts hands other features: plain service calls that are not
 * operations of their own. The market records a sale's shares, holds,
 * releases and reverses them with its orders' disputes and refunds, and hands
 * Connect's account events over; the admin holds a banned creator's shares and
 * counts sales in the same scope; the studio's numbers take the sales ones; erasure settles an erased creator's money.
 */

/** A Connect `account.updated` event (in the webhook's transaction): the account's new state. */
export function applyStripeAccountUpdate(trx: DB, account: Stripe.Account, now: Date) {
  return applyAccountState(trx, "stripe" satisfies PayoutProviderId, accountStateOf(account), now);
}

export type { SalesScope } from "~/features/payouts/ledger/earnings.server";
export { marketStats } from "~/features/payouts/ledger/market-stats.server";
export { recordSale, splitSale, type SoldItem } from "~/features/payouts/ledger/earnings.server";
export {
  holdShares,
  releaseShares,
  reverseSharesForRefund,
  type ReversedShare,
  restoreSharesForUndoneRefund,
  queueTransfersOfOrder,
  TRANSFER_JOB,
} from "~/features/payouts/ledger/shares.server";
export {
  holdSharesOfBannedCreator,
  releaseSharesOfUnbannedCreator,
} from "~/features/payouts/ledger/banned-creator-shares.server";
export {
  queueTransfersOfErasedCreator,
  settlePayoutsOfErasedCreator,
} from "~/features/payouts/creator-erasure.server";
export type { PayoutJobDeps } from "~/features/payouts/transfers/payout-jobs.server";
