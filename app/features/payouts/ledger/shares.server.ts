import { sql } from "kysely";
import type { EarningRow, PayoutProviderId, ShareStatus } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { enqueueJob } from "~/infra/jobs/job-queue.server";
import { jsonTextField } from "~/infra/sql-dialect.server";
import { CREATOR_SHARE_PERCENT } from "~/features/payouts/types";

/**
 * The shares' life after a sale: each ledger row (one sold item) is owed,
 * transferred, held or reversed. This module changes those states inside the
 * caller's transaction and queues the money movements as durable jobs
 * (payout-jobs.server.ts), so a refund or a dispute and its effect on every
 * share commit together, and the provider calls happen after, with retries.
 *
 * A share travels through the payout provider of its order's payment: a
 * Stripe sale's share to the creator's Stripe Connect account, a sale in the
 * built-in test checkout (no money moved) to the creator's test payout account.
 */

export const TRANSFER_JOB = "payouts.transfer";
export const REVERSAL_JOB = "payouts.reverse";
/** Attempts per transfer or reversal (with the queue's backoff between them). */
export const PAYOUT_JOB_ATTEMPTS = 8;

/** The payout provider that carries a share: the one matching how its order was paid. */
export function shareProvider(row: Pick<EarningRow, "test_mode">): PayoutProviderId {
  return row.test_mode === 1 ? "test" : "stripe";
}

/**
 * Queues a transfer for every owed share of the given rows whose creator has
 * an active payout account at the share's provider and is not banned. Shares
 * of creators without one stay owed (queueOwedTransfers sends them once the
 * account is ready). Each job names its creator, so a ban calls it off.
 */
async function queueTransfersWhere(
  trx: DB,
  filter: { orderId?: string; creatorId?: string; provider?: PayoutProviderId },
  now: Date,
): Promise<number> {
  const rows = await trx
    .selectFrom("earnings as e")
    .innerJoin("payout_accounts as a", (join) =>
      join
        .onRef("a.user_id", "=", "e.creator_id")
        .on(sql<boolean>`a.provider = case when e.test_mode = 1 then 'test' else 'stripe' end`)
        .on("a.status", "=", "active"),
    )
    .innerJoin("users as u", "u.id", "e.creator_id")
    .select(["e.id", "e.creator_id"])
    .where("e.status", "=", "owed")
    .where("u.banned", "=", 0)
    .where("e.transfer_id", "is", null)
    .where(sql<boolean>`e.amount_cents > e.creator_reversed_cents`)
    // Not when a transfer of the share is already waiting or running.
    .where(
      sql<boolean>`not exists (select 1 from jobs j where j.kind = ${TRANSFER_JOB} and j.status in ('queued', 'running') and ${jsonTextField(trx, sql.ref("j.payload"), "earningId")} = e.id)`,
    )
    .$if(filter.orderId !== undefined, (qb) => qb.where("e.order_id", "=", filter.orderId!))
    .$if(filter.creatorId !== undefined, (qb) => qb.where("e.creator_id", "=", filter.creatorId!))
    .$if(filter.provider !== undefined, (qb) =>
      qb.where("e.test_mode", "=", filter.provider === "test" ? 1 : 0),
    )
    .execute();
  for (const row of rows) {
    await enqueueJob(trx, {
      kind: TRANSFER_JOB,
      payload: { earningId: row.id },
      now,
      maxAttempts: PAYOUT_JOB_ATTEMPTS,
      userId: row.creator_id,
    });
  }
  return rows.length;
}

/** After fulfilment: the transfers of an order's shares (in the fulfilling transaction). */
export function queueTransfersOfOrder(trx: DB, orderId: string, now: Date): Promise<number> {
  return queueTransfersWhere(trx, { orderId }, now);
}

/** A creator's payout account became ready: every share it owes at that provider. */
export function queueOwedTransfers(
  trx: DB,
  creatorId: string,
  provider: PayoutProviderId,
  now: Date,
): Promise<number> {
  return queueTransfersWhere(trx, { creatorId, provider }, now);
}

/** A creator's shares at every provider (an unban). */
export function queueOwedTransfersOfCreator(
  trx: DB,
  creatorId: string,
  now: Date,
): Promise<number> {
  return queueTransfersWhere(trx, { creatorId }, now);
}

/** A reversal takes money back from the creator: it names no creator, so a ban never calls it off. */
async function queueReversal(trx: DB, earningId: string, now: Date): Promise<void> {
  await enqueueJob(trx, {
    kind: REVERSAL_JOB,
    payload: { earningId },
    now,
    maxAttempts: PAYOUT_JOB_ATTEMPTS,
  });
}

/** numerator / denominator rounded to the nearest integer, ties to the even one (integers only, exact). */
export function roundHalfToEven(numerator: number, denominator: number): number {
  const quotient = Math.floor(numerator / denominator);
  const remainder = numerator - quotient * denominator;
  const twice = remainder * 2;
  if (twice < denominator) return quotient;
  if (twice > denominator) return quotient + 1;
  return quotient % 2 === 0 ? quotient : quotient + 1;
}

interface ShareForRefund {
  id: string;
  priceCents: number;
  amountCents: number;
  feeCents: number;
  creatorReversedCents: number;
  platformReversedCents: number;
}

/**
 * Spreads `deltaCents` of new refund over an order's items in proportion to
 * what is still unrefunded of each (largest remainder, ties to the earlier
 * item), never more than an item has left. Answers each item's new total.
 */
export function allocateRefund(shares: ShareForRefund[], deltaCents: number): number[] {
  const refundedOf = (share: ShareForRefund) =>
    share.creatorReversedCents + share.platformReversedCents;
  const left = shares.map((share) => share.priceCents - refundedOf(share));
  const leftTotal = left.reduce((sum, cents) => sum + cents, 0);
  if (deltaCents > leftTotal)
    throw new Error(
      `A refund of ${deltaCents} cents exceeds the ${leftTotal} cents left to refund`,
    );
  if (deltaCents <= 0 || leftTotal === 0) return shares.map(refundedOf);
  const exact = left.map((cents) => (deltaCents * cents) / leftTotal);
  const parts = exact.map(Math.floor);
  let rest = deltaCents - parts.reduce((sum, cents) => sum + cents, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (rest === 0) break;
    if (parts[index] < left[index]) {
      parts[index] += 1;
      rest -= 1;
    }
  }
  return shares.map((share, index) => refundedOf(share) + parts[index]);
}

/**
 * The creator's part of an item's refunds: the same 85% as the sale (rounded
 * half to even), all of the share once the whole item is refunded, and never
 * more than the share or less than what the platform's fee cannot cover.
 */
export function creatorPartOfRefund(
  share: Pick<ShareForRefund, "priceCents" | "amountCents" | "feeCents">,
  refundedCents: number,
): number {
  if (refundedCents >= share.priceCents) return share.amountCents;
  const proportional = roundHalfToEven(refundedCents * CREATOR_SHARE_PERCENT, 100);
  return Math.min(share.amountCents, Math.max(refundedCents - share.feeCents, proportional));
}

/**
 * An order's shares, each with what its item sold for (the price less any
 * discount: the share and the fee add up to it), in the order of its items.
 */
function sharesOfOrder(trx: DB, orderId: string) {
  return trx
    .selectFrom("earnings as e")
    .innerJoin("order_items as i", "i.id", "e.order_item_id")
    .selectAll("e")
    .select((eb) => eb("e.amount_cents", "+", eb.ref("e.platform_fee_cents")).as("price_cents"))
    .where("e.order_id", "=", orderId)
    .orderBy("i.position")
    .execute();
}

/** What one refund took back of a creator's share of one sold item (`reversedCents`: this refund's part, not the total so far). */
export interface ReversedShare {
  orderItemId: string;
  creatorId: string;
  reversedCents: number;
}

/**
 * An order's refunds reached `refundedTotalCents` (in the transaction that
 * recorded them): each share gives back its part. A share fully given back
 * is reversed (cancelled when it was never sent); a transfer that was sent is
 * reversed at the provider by a queued job, for the creator's part only.
 * Answers what this refund took back of each creator's share (for their notice).
 */
export async function reverseSharesForRefund(
  trx: DB,
  orderId: string,
  refundedTotalCents: number,
  now: Date,
): Promise<ReversedShare[]> {
  const reversed: ReversedShare[] = [];
  const rows = await sharesOfOrder(trx, orderId);
  const shares: ShareForRefund[] = rows.map((row) => ({
    id: row.id,
    priceCents: row.price_cents,
    amountCents: row.amount_cents,
    feeCents: row.platform_fee_cents,
    creatorReversedCents: row.creator_reversed_cents,
    platformReversedCents: row.platform_reversed_cents,
  }));
  const alreadyRefunded = shares.reduce(
    (sum, share) => sum + share.creatorReversedCents + share.platformReversedCents,
    0,
  );
  const totals = allocateRefund(shares, refundedTotalCents - alreadyRefunded);
  const stamp = now.toISOString();
  for (const [index, row] of rows.entries()) {
    const refunded = totals[index];
    const creatorPart = creatorPartOfRefund(shares[index], refunded);
    if (
      creatorPart === row.creator_reversed_cents &&
      refunded - creatorPart === row.platform_reversed_cents
    )
      continue;
    const fullyReversed = creatorPart >= row.amount_cents;
    await trx
      .updateTable("earnings")
      .set({
        creator_reversed_cents: creatorPart,
        platform_reversed_cents: refunded - creatorPart,
        ...(fullyReversed
          ? { status: "reversed" as const, held_from: null, reversed_at: stamp }
          : {}),
      })
      .where("id", "=", row.id)
      .execute();
    if (row.transfer_id !== null && creatorPart > row.creator_reversed_cents)
      await queueReversal(trx, row.id, now);
    if (creatorPart > row.creator_reversed_cents)
      reversed.push({
        orderItemId: row.order_item_id,
        creatorId: row.creator_id,
        reversedCents: creatorPart - row.creator_reversed_cents,
      });
  }
  return reversed;
}

/**
 * Part of an order's refunds was undone (a refund that failed after it was
 * recorded, or a lost dispute won on appeal): the order's refunded total went
 * down to `refundedTotalCents` (in the transaction that recorded it). The
 * cents given back are spread over the items in proportion to what each had
 * refunded (largest remainder, ties to the earlier item); each share's parts
 * follow from its new refunded total as on the way down. A share reversed in
 * full is owed or transferred again; where its transfer had already been
 * reversed at the provider, a job sends the difference back.
 */
export async function restoreSharesForUndoneRefund(
  trx: DB,
  orderId: string,
  refundedTotalCents: number,
  now: Date,
): Promise<void> {
  const rows = await sharesOfOrder(trx, orderId);
  const refunded = rows.map((row) => row.creator_reversed_cents + row.platform_reversed_cents);
  const total = refunded.reduce((sum, cents) => sum + cents, 0);
  const giveBack = Math.min(total, total - Math.max(0, refundedTotalCents));
  if (giveBack <= 0) return;
  const exact = refunded.map((cents) => (giveBack * cents) / total);
  const parts = exact.map(Math.floor);
  let rest = giveBack - parts.reduce((sum, cents) => sum + cents, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (rest === 0) break;
    if (parts[index] < refunded[index]) {
      parts[index] += 1;
      rest -= 1;
    }
  }
  let owedAgain = false;
  for (const [index, row] of rows.entries()) {
    if (parts[index] === 0) continue;
    const left = refunded[index] - parts[index];
    const creatorPart =
      left === 0
        ? 0
        : creatorPartOfRefund(
            {
              priceCents: row.price_cents,
              amountCents: row.amount_cents,
              feeCents: row.platform_fee_cents,
            },
            left,
          );
    const restored = row.status === "reversed" && creatorPart < row.amount_cents;
    const status: ShareStatus = restored
      ? row.transfer_id === null
        ? "owed"
        : "transferred"
      : row.status;
    if (status === "owed") owedAgain = true;
    await trx
      .updateTable("earnings")
      .set({
        creator_reversed_cents: creatorPart,
        platform_reversed_cents: left - creatorPart,
        status,
        ...(restored ? { reversed_at: null } : {}),
      })
      .where("id", "=", row.id)
      .execute();
    // Settles the transfer with the ledger: what was taken back at the provider beyond the new part is sent back.
    if (row.transfer_id !== null && creatorPart < row.creator_reversed_cents)
      await queueReversal(trx, row.id, now);
  }
  if (owedAgain) await queueTransfersOfOrder(trx, orderId, now);
}

/** A reversal job sent back `reinstatedTotalCents` in all of what a share's reversals took (its own transaction). */
export async function recordReinstatement(
  trx: DB,
  earningId: string,
  reinstatement: { transferId: string; reinstatedTotalCents: number },
): Promise<void> {
  await trx
    .updateTable("earnings")
    .set({
      reinstated_cents: reinstatement.reinstatedTotalCents,
      reinstatement_transfer_id: reinstatement.transferId,
    })
    .where("id", "=", earningId)
    .where("reinstated_cents", "<", reinstatement.reinstatedTotalCents)
    .execute();
}

/** A dispute opened: the order's shares are held (an owed one is not sent while it lasts). */
export async function holdShares(trx: DB, orderId: string): Promise<void> {
  await trx
    .updateTable("earnings")
    .set((eb) => ({ held_from: eb.ref("status"), status: "held" }))
    .where("order_id", "=", orderId)
    .where("status", "in", ["owed", "transferred"])
    .execute();
}

/**
 * A dispute closed in the seller's favour: each held share is what it was
 * before, and owed ones are sent. An owed share of a banned creator stays held
 * (banned-creator-shares.server.ts releases it on unban).
 */
export async function releaseShares(trx: DB, orderId: string, now: Date): Promise<void> {
  await trx
    .updateTable("earnings")
    .set({ status: sql<ShareStatus>`coalesce(held_from, 'owed')`, held_from: null })
    .where("order_id", "=", orderId)
    .where("status", "=", "held")
    .where(
      sql<boolean>`not (coalesce(held_from, 'owed') = 'owed' and exists (select 1 from users u where u.id = earnings.creator_id and u.banned = 1))`,
    )
    .execute();
  await queueTransfersOfOrder(trx, orderId, now);
}

/**
 * A transfer job sent a share (in the job's own transaction): the row names
 * the transfer. When a refund reached the share while the transfer was on its
 * way, the refunded part is reversed at once.
 */
export async function recordTransfer(
  trx: DB,
  earningId: string,
  transfer: { transferId: string; amountCents: number },
  now: Date,
): Promise<void> {
  const stamp = now.toISOString();
  const updated = await trx
    .updateTable("earnings")
    .set({
      transfer_id: transfer.transferId,
      transferred_cents: transfer.amountCents,
      transferred_at: stamp,
      // Sent while owed: transferred. Sent while held (a dispute opened meanwhile): still held, and a won dispute restores it as transferred.
      status: sql<ShareStatus>`case when status = 'owed' then 'transferred' else status end`,
      held_from: sql<ShareStatus | null>`case when status = 'held' then 'transferred' else held_from end`,
    })
    .where("id", "=", earningId)
    .where("transfer_id", "is", null)
    .returning(["creator_reversed_cents", "transfer_reversed_cents"])
    .executeTakeFirst();
  if (updated && updated.creator_reversed_cents > updated.transfer_reversed_cents)
    await queueReversal(trx, earningId, now);
}

/** A reversal job took back `reversedTotalCents` of a share's transfer in all (its own transaction). */
export async function recordReversal(
  trx: DB,
  earningId: string,
  reversal: { reversalId: string; reversedTotalCents: number },
  now: Date,
): Promise<void> {
  await trx
    .updateTable("earnings")
    .set({
      transfer_reversed_cents: reversal.reversedTotalCents,
      reversal_id: reversal.reversalId,
      reversed_at: now.toISOString(),
    })
    .where("id", "=", earningId)
    .where("transfer_reversed_cents", "<", reversal.reversedTotalCents)
    .execute();
}
