import { z } from "zod";
import type { PayoutProviderId } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { crashPoint } from "~/infra/crash-points.server";
import type { JobHandler, JobRunContext } from "~/infra/jobs/job-worker.server";
import type { PayoutProvider } from "~/infra/payouts/payout-provider.server";
import {
  recordReinstatement,
  recordReversal,
  recordTransfer,
  shareProvider,
} from "~/features/payouts/ledger/shares.server";

/**
 * The jobs that move shares (queued by shares.server.ts): one transfer per
 * ledger row and the reversals of what refunds took back. Each call to the
 * provider carries an idempotency key derived from the ledger row, so a job
 * retried after a failure, a timeout or a killed process moves the money once;
 * the row is updated afterwards in a conditional UPDATE. Stripe forgets an
 * idempotency key after 24 hours and then runs the request again, so before
 * anything is sent the provider is asked for a transfer (or reversal) that
 * already carries the share's id in its metadata, and that one is recorded.
 *
 * A transfer always sends the whole share (the same request on every attempt,
 * as the idempotency key demands); a part refunded before it was sent is
 * reversed right after, by a reversal job.
 */

export interface PayoutJobDeps {
  /** The provider of that id, or null when it is not configured (Stripe without a key). */
  payoutProvider: (id: PayoutProviderId, db: DB) => PayoutProvider | null;
  /** The charge behind a Stripe PaymentIntent (the transfer's source_transaction). */
  chargeOf: (paymentIntentId: string) => Promise<string | null>;
  /** Keeps the charge found for an order, so its other shares need not ask again (the market's orders). */
  rememberCharge: (db: DB, orderId: string, chargeId: string) => Promise<void>;
}

const payload = z.object({ earningId: z.string().min(1) }).strict();
type SharePayload = z.infer<typeof payload>;

async function shareWithOrder(db: DB, earningId: string) {
  return db
    .selectFrom("earnings as e")
    .innerJoin("orders as o", "o.id", "e.order_id")
    .innerJoin("users as u", "u.id", "e.creator_id")
    .select([
      "e.id",
      "e.creator_id",
      "e.order_id",
      "e.amount_cents",
      "e.status",
      "e.test_mode",
      "e.transfer_id",
      "e.transferred_cents",
      "e.creator_reversed_cents",
      "e.transfer_reversed_cents",
      "e.reinstated_cents",
      "e.reinstatement_transfer_id",
      "o.currency",
      "o.payment_intent_id",
      "o.charge_id",
      "u.banned as creator_banned",
    ])
    .where("e.id", "=", earningId)
    .executeTakeFirst();
}

/**
 * Sends an owed share to its creator's active payout account; anything else
 * (already sent, held, reversed, no account, a banned creator) is left as it is.
 * A job queued before a ban finds the share held (or, should the two cross,
 * the creator banned) and sends nothing.
 */
export async function runTransfer(
  deps: PayoutJobDeps,
  { earningId }: SharePayload,
  context: Pick<JobRunContext, "db" | "now">,
): Promise<void> {
  const { db } = context;
  const share = await shareWithOrder(db, earningId);
  if (!share || share.transfer_id !== null || share.status !== "owed" || share.creator_banned === 1)
    return;
  if (share.amount_cents <= share.creator_reversed_cents) return;
  const providerId = shareProvider(share);
  const account = await db
    .selectFrom("payout_accounts")
    .select("account_id")
    .where("user_id", "=", share.creator_id)
    .where("provider", "=", providerId)
    .where("status", "=", "active")
    .executeTakeFirst();
  if (!account) return;
  const provider = deps.payoutProvider(providerId, db);
  if (!provider) return;

  let sourceTransaction: string | null = null;
  if (providerId === "stripe") {
    sourceTransaction = share.charge_id;
    if (!sourceTransaction && share.payment_intent_id) {
      sourceTransaction = await deps.chargeOf(share.payment_intent_id);
      if (sourceTransaction) await deps.rememberCharge(db, share.order_id, sourceTransaction);
    }
  }
  // Sent before, and the process died before recording it (maybe days ago): record that one.
  const existing = await provider.findTransfer({
    transferGroup: share.order_id,
    earningId: share.id,
  });
  if (existing) {
    await db
      .transaction()
      .execute((trx) =>
        recordTransfer(
          trx,
          share.id,
          { transferId: existing.transferId, amountCents: existing.amountCents },
          context.now(),
        ),
      );
    return;
  }
  const { transferId } = await provider.transfer({
    accountId: account.account_id,
    amountCents: share.amount_cents,
    currency: share.currency,
    transferGroup: share.order_id,
    sourceTransaction,
    idempotencyKey: share.id,
    metadata: { order_id: share.order_id, earning_id: share.id, creator_id: share.creator_id },
  });
  crashPoint("transfer-sent");
  await db
    .transaction()
    .execute((trx) =>
      recordTransfer(trx, share.id, { transferId, amountCents: share.amount_cents }, context.now()),
    );
}

/**
 * Settles a share's transfer with the ledger: takes back, at the provider, the
 * creator's part of its refunds that has not been taken back yet; or, when a
 * refund was undone after its reversal (a failed refund, a dispute won on
 * appeal), sends back what was taken beyond the creator's part now.
 */
export async function runReversal(
  deps: PayoutJobDeps,
  { earningId }: SharePayload,
  context: Pick<JobRunContext, "db" | "now">,
): Promise<void> {
  const { db } = context;
  const share = await shareWithOrder(db, earningId);
  // Never sent: the ledger's cancellation is all there is to do.
  if (!share || share.transfer_id === null) return;
  const target = Math.min(share.creator_reversed_cents, share.transferred_cents);
  const giveBack = share.transfer_reversed_cents - target - share.reinstated_cents;
  if (giveBack > 0)
    return runReinstatement(deps, share, share.reinstated_cents + giveBack, context);
  const amountCents = target - share.transfer_reversed_cents;
  if (amountCents <= 0) {
    if (
      share.reinstated_cents > 0 &&
      target > share.transfer_reversed_cents - share.reinstated_cents
    ) {
      // Taking back money sent by a reinstatement is not automated (Stripe refuses refunds of a disputed charge).
      console.warn(
        `Share ${share.id}: ${target} cents to take back after a reinstatement; reverse ${share.reinstatement_transfer_id ?? "the reinstatement"} in Stripe`,
      );
    }
    return;
  }
  const provider = deps.payoutProvider(shareProvider(share), db);
  if (!provider)
    throw new Error(
      `The ${shareProvider(share)} payout provider is not configured; share ${share.id} cannot be reversed yet`,
    );
  const existing = await provider.findReversal({
    transferId: share.transfer_id,
    earningId: share.id,
    reversedTotalCents: target,
  });
  if (existing) {
    await db
      .transaction()
      .execute((trx) =>
        recordReversal(
          trx,
          share.id,
          { reversalId: existing.reversalId, reversedTotalCents: target },
          context.now(),
        ),
      );
    return;
  }
  const { reversalId } = await provider.reverseTransfer({
    transferId: share.transfer_id,
    amountCents,
    // Named by the total taken back so far: a retry asks for the same reversal, a later refund for a new one.
    idempotencyKey: `${share.id}-reversal-${target}`,
    metadata: {
      order_id: share.order_id,
      earning_id: share.id,
      reversed_total_cents: String(target),
    },
  });
  crashPoint("transfer-reversal-sent");
  await db
    .transaction()
    .execute((trx) =>
      recordReversal(trx, share.id, { reversalId, reversedTotalCents: target }, context.now()),
    );
}

/** Sends a share's creator back what reversals took beyond the ledger's part (reaching `reinstatedTotalCents` in all). */
async function runReinstatement(
  deps: PayoutJobDeps,
  share: NonNullable<Awaited<ReturnType<typeof shareWithOrder>>>,
  reinstatedTotalCents: number,
  context: Pick<JobRunContext, "db" | "now">,
): Promise<void> {
  const { db } = context;
  const providerId = shareProvider(share);
  const provider = deps.payoutProvider(providerId, db);
  if (!provider)
    throw new Error(
      `The ${providerId} payout provider is not configured; share ${share.id} cannot be reinstated yet`,
    );
  const account = await db
    .selectFrom("payout_accounts")
    .select("account_id")
    .where("user_id", "=", share.creator_id)
    .where("provider", "=", providerId)
    .where("status", "=", "active")
    .executeTakeFirst();
  // No ready account (or a banned creator): tried again by the job's retries; a ban keeps it owed to the creator.
  if (!account || share.creator_banned === 1)
    throw new Error(
      `Share ${share.id}: no active payout account to send the reinstated ${reinstatedTotalCents} cents to`,
    );
  const kind = `reinstatement-${reinstatedTotalCents}`;
  const existing = await provider.findTransfer({
    transferGroup: share.order_id,
    earningId: share.id,
    kind,
  });
  const transferId =
    existing?.transferId ??
    (
      await provider.transfer({
        accountId: account.account_id,
        amountCents: reinstatedTotalCents - share.reinstated_cents,
        currency: share.currency,
        transferGroup: share.order_id,
        sourceTransaction: null,
        idempotencyKey: `${share.id}-${kind}`,
        metadata: {
          order_id: share.order_id,
          earning_id: share.id,
          creator_id: share.creator_id,
          kind,
        },
      })
    ).transferId;
  await db
    .transaction()
    .execute((trx) => recordReinstatement(trx, share.id, { transferId, reinstatedTotalCents }));
}

export function transferJobHandler(deps: PayoutJobDeps): JobHandler<SharePayload> {
  return {
    parse: (value) => payload.parse(value),
    run: (value, context) => runTransfer(deps, value, context),
    timeoutMs: 2 * 60_000,
  };
}

export function reversalJobHandler(deps: PayoutJobDeps): JobHandler<SharePayload> {
  return {
    parse: (value) => payload.parse(value),
    run: (value, context) => runReversal(deps, value, context),
    timeoutMs: 2 * 60_000,
  };
}
