import type { DB } from "~/infra/db.server";
import { cancelQueuedJobsOfOwner, enqueueJob } from "~/infra/jobs/job-queue.server";
import { CANCELLED_BY_ERASURE } from "~/lib/accounts";
import { closeAccountForErasure } from "~/features/accounts/public.server";
import { cancelPublicationsOfErasedCreator } from "~/features/publishing/public.server";
import { forgetMailTo, outboxRecipientKeys } from "~/features/mail/public.server";
import { recordAuditEntry } from "~/features/audit/public.server";
import {
  eraseFollowsOf,
  forgetBuyerDetails,
  withdrawListingsOfErasedCreator,
} from "~/features/market/public.server";
import { cancelStylesOfErasedCreator } from "~/features/studio/public.server";
import { eraseConsentLogOf } from "~/features/privacy/public.server";
import { queueTransfersOfErasedCreator, TRANSFER_JOB } from "~/features/payouts/public.server";
import {
  ERASE_ACCOUNT_ATTEMPTS,
  ERASE_ACCOUNT_JOB,
  type EraseAccountPayload,
} from "~/features/erasure/erasure-job.server";

/** What the erasure answers (202): the account is closed; its files and data go in the background. */
export interface ErasureStarted {
  userId: string;
  status: "erasing";
}

/**
 * An account erasure's first, instant half, in one transaction (every
 * feature's part through its face):
 * - accounts: every session and token ends, the row becomes a tombstone (the
 *   email is free to register again; nobody can sign in as it);
 * - market: the listings are withdrawn (out of the marketplace and its search
 *   index; a checkout open on one of them is refunded when paid: fulfilment
 *   refuses a gone seller), purchases made with any address the account had forget it, and the follows go (its followers' addresses, and what it followed with its addresses);
 * - studio and publishing: styles and queued publications are called off, and
 *   so are the user's queued jobs, except transfers;
 * - payouts: owed shares are queued for transfer to an active account;
 * - privacy: the consent log (every consent given and withdrawn) goes;
 * - mail: messages to any address the account had (its current one and those
 *   its email changes replaced) are forgotten; the job removes the outbox's;
 * - the audit log records `user.erase` by the actor;
 * - the erasure job (erasure-job.server.ts) is queued for the rest.
 * Erasing an erased account again changes nothing and answers the same.
 */
export async function beginErasure(
  db: DB,
  { actorId, userId, now }: { actorId: string; userId: string; now: Date },
): Promise<ErasureStarted> {
  return db.transaction().execute(async (trx) => {
    const closed = await closeAccountForErasure(trx, userId, now);
    if (closed.alreadyErased) return { userId, status: "erasing" };
    await withdrawListingsOfErasedCreator(trx, userId, now);
    await cancelStylesOfErasedCreator(trx, userId, now);
    await cancelPublicationsOfErasedCreator(trx, userId, now);
    await eraseConsentLogOf(trx, userId);
    // Transfers stay: the money owed is sent before the payout account link goes.
    await cancelQueuedJobsOfOwner(trx, {
      userId,
      keepKinds: [TRANSFER_JOB],
      reason: CANCELLED_BY_ERASURE,
      now,
    });
    await queueTransfersOfErasedCreator(trx, userId, now);
    // Every address the account had: the current one and those its email changes replaced.
    const emails = [closed.email, ...closed.formerEmails];
    for (const email of emails) await forgetBuyerDetails(trx, { userId, email, now });
    // The creator's followers' addresses, and the follows the person made with any of them.
    await eraseFollowsOf(trx, { userId, emails });
    await forgetMailTo(trx, emails);
    await recordAuditEntry(trx, { actorId, action: "user.erase", subjectId: userId, now });
    const payload: EraseAccountPayload = {
      userId,
      profileImageUrl: closed.profileImageUrl,
      outboxRecipients: outboxRecipientKeys(emails),
    };
    // Named by no owner: a ban's cancellation must never call the erasure off.
    await enqueueJob(trx, {
      kind: ERASE_ACCOUNT_JOB,
      payload,
      now,
      maxAttempts: ERASE_ACCOUNT_ATTEMPTS,
      userId: null,
    });
    return { userId, status: "erasing" };
  });
}
