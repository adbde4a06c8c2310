import { z } from "zod";
import type { FileStore } from "~/infra/file-store.server";
import { ownerHasRunningJob } from "~/infra/jobs/job-queue.server";
import { compactAfterErasure } from "~/infra/db.server";
import type { JobHandler, JobRunContext } from "~/infra/jobs/job-worker.server";
import { erasePublishingDataOf } from "~/features/publishing/public.server";
import { boughtFileKeysOfCreator, eraseListingsOfCreator } from "~/features/market/public.server";
import { eraseStudioDataOf } from "~/features/studio/public.server";
import { settlePayoutsOfErasedCreator, type PayoutJobDeps } from "~/features/payouts/public.server";
import {
  avatarKeyOf,
  eraseAccountExportsOf,
  isAccountErased,
} from "~/features/accounts/public.server";
import { forgetOutboxMailTo } from "~/features/mail/public.server";

/** The background half of an account erasure. */
export const ERASE_ACCOUNT_JOB = "accounts.erase";
/** Attempts while the creator's running work finishes (the job waits for it) and for errors that may pass. */
export const ERASE_ACCOUNT_ATTEMPTS = 12;

const eraseAccountPayload = z
  .object({
    userId: z.string().min(1),
    /** The profile photo's address before the erasure (its file goes too). */
    profileImageUrl: z.string().nullable(),
    /** The sha256 of each address the account had, to find its messages in the outbox by (outboxRecipientKeys); emptied once the job ends. */
    outboxRecipients: z.array(z.string()).default([]),
  })
  .strict();
export type EraseAccountPayload = z.input<typeof eraseAccountPayload>;

export interface EraseAccountJobDeps {
  store: FileStore;
  /** Where the outbox keeps the messages written while SMTP_URL was unset (DATA_DIR/outbox). */
  outboxDir: string;
  payouts: PayoutJobDeps;
  log?: (line: string) => void;
}

/** Thrown while a worker still holds one of the creator's jobs: the erasure tries again after it. */
class CreatorWorkStillRunning extends Error {
  readonly retryable = true;
  constructor(userId: string) {
    super(`Waiting for the running work of ${userId} to end before erasing its files`);
  }
}

/**
 * Deletes what the account leaves behind, each feature's part through its
 * face, in an order that lets go of rows before their files: publications
 * and integrations, then listings, then originals and styles, then the
 * export packages, the profile photo and the outbox's messages to the
 * person, then the money (sent first, else
 * held) and the payout account link. Files a buyer paid for stay (their
 * download reads the order item's file). Every step works on what is left,
 * so an attempt that dies halfway is finished by the next.
 *
 * A style, publication or transfer a worker held at the erasure is let to
 * end first (it sees the erased account and stores nothing), so no file is
 * written after its rows went; on the last attempt the job goes on anyway.
 */
export async function runEraseAccountJob(
  deps: EraseAccountJobDeps,
  payload: EraseAccountPayload,
  context: JobRunContext,
): Promise<void> {
  const { db } = context;
  const { userId } = payload;
  if (!(await isAccountErased(db, userId))) return;
  if (
    context.attempt < context.maxAttempts &&
    (await ownerHasRunningJob(db, userId, context.jobId))
  ) {
    throw new CreatorWorkStillRunning(userId);
  }
  const keep = await boughtFileKeysOfCreator(db, userId);
  await erasePublishingDataOf(db, deps.store, userId);
  await eraseListingsOfCreator(db, deps.store, { userId, keep });
  await eraseStudioDataOf(db, deps.store, { userId, keep });
  await eraseAccountExportsOf(db, deps.store, userId);
  await removeProfilePhoto(deps.store, payload.profileImageUrl);
  await forgetOutboxMailTo(deps.outboxDir, payload.outboxRecipients ?? []);
  await settlePayoutsOfErasedCreator(deps.payouts, db, { userId, now: context.now, log: deps.log });
  // No earlier copy of the erased rows stays in SQLite's file or its write-ahead log.
  await compactAfterErasure(db);
}

/**
 * The profile photo's file, when the address names one of ours: at /media, or
 * with object storage at its public address (the shared samples stay).
 */
async function removeProfilePhoto(store: FileStore, url: string | null): Promise<void> {
  const avatar = avatarKeyOf(url);
  if (avatar) return store.remove(avatar);
  if (!url?.startsWith("/media/")) return;
  const key = decodeURIComponent(url.slice("/media/".length).split("?")[0]);
  if (!key || key.startsWith("samples/") || key.includes("..")) return;
  await store.remove(key);
}

export function eraseAccountJobHandler(deps: EraseAccountJobDeps): JobHandler<EraseAccountPayload> {
  return {
    parse: (payload) => eraseAccountPayload.parse(payload),
    run: (payload, context) => runEraseAccountJob(deps, payload, context),
    // The addresses' keys are kept no longer than the job needs them.
    redactWhenFinished: (payload) => ({ ...payload, outboxRecipients: [] }),
  };
}
