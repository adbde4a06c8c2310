import { z } from "zod";
import { observeStyling } from "~/infra/metrics.server";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { newFileKey } from "~/infra/file-store.server";
import type { JobHandler, JobRunContext } from "~/infra/jobs/job-worker.server";
import { JobCancelledError, JobTimeoutError } from "~/infra/jobs/job-worker.server";
import { HttpError } from "~/infra/errors.server";
import { CANCELLED_BY_ERASURE, CANCELLED_BY_SUSPENSION } from "~/lib/accounts";
import type { StyleEngine } from "~/engines/styling/style-engine.server";
import { StyleEngineError } from "~/engines/styling/style-engine-error.server";
import { isStyleId } from "~/lib/styles";
import { crashPoint } from "~/infra/crash-points.server";
import {
  originalIngredient,
  styledFileFacts,
  type ContentCredentials,
} from "~/engines/provenance/content-credentials.server";
import {
  CANCELLED_BY_CONSENT_TEXT_CHANGE,
  CANCELLED_BY_CONSENT_WITHDRAWAL,
  hasCurrentFaceConsent,
} from "~/features/privacy/face-consent";

/**
 * The styling job: reads the original, asks the style engine for the look,
 * signs the result's Content Credentials (what its XMP says it is, the
 * original by hash), stores it under a new key and records it, with the engine
 * that really made it. Safe to run again (a completed or deleted image is left alone).
 */

export const stylizeJobPayload = z.object({ stylizedImageId: z.string().min(1) });
export type StylizeJobPayload = z.infer<typeof stylizeJobPayload>;

export interface StylizeJobDeps {
  store: FileStore;
  /** The engine to style with (chosen per job, so a changed configuration applies after a restart). */
  engine: () => StyleEngine;
  /**
   * The version of the consent text the creator would be shown now, for that
   * engine (privacy's currentFaceConsentVersion): a consent to another text
   * (another engine, an earlier wording) does not let the job measure a face.
   */
  faceConsentVersion: () => string;
  /** How long one attempt may take, all included (default 3 minutes). */
  timeoutMs?: number;
  /** Throws (a 507 HttpError) when the data volume has no room for the result; the attempt is then tried again later. */
  ensureSpace?: () => Promise<void>;
  /** Signs the styled file's Content Credentials (decision 095) before it is stored. */
  credentials: ContentCredentials;
}

const GENERIC_FAILURE = "The style could not be generated. Please try again.";
const TIMEOUT_FAILURE = "The style took too long to generate. Please try again.";

/** The sentence a creator reads when a style failed. */
export function stylizeFailureMessage(error: unknown): string {
  if (error instanceof StyleEngineError) return error.message;
  if (error instanceof JobCancelledError) return error.message;
  if (error instanceof HttpError && error.status === 507) return error.message;
  if (error instanceof JobTimeoutError) return TIMEOUT_FAILURE;
  return GENERIC_FAILURE;
}

export async function runStylizeJob(
  deps: StylizeJobDeps,
  payload: StylizeJobPayload,
  context: JobRunContext,
): Promise<void> {
  const { db } = context;
  const row = await db
    .selectFrom("stylized_images")
    .innerJoin("images", "images.id", "stylized_images.image_id")
    .innerJoin("users", "users.id", "stylized_images.user_id")
    .select([
      "stylized_images.id",
      "stylized_images.style",
      "stylized_images.status",
      "stylized_images.seed",
      "stylized_images.user_id",
      "images.file_key as original_key",
      "users.banned",
      "users.face_consent_version",
      "users.face_consent_at",
      "users.erased_at",
    ])
    .where("stylized_images.id", "=", payload.stylizedImageId)
    .executeTakeFirst();
  if (!row || row.status === "completed") return; // deleted meanwhile, or already done by an earlier attempt
  // A banned creator's job does no work: it ends cancelled (the ban already marked the style failed).
  if (row.banned) throw new JobCancelledError(CANCELLED_BY_SUSPENSION);
  // A creator who withdrew their consent to face processing, or whose consent is to another text
  // than the engine's now (fal.ai set up since): no face of theirs is measured.
  if (!hasCurrentFaceConsent(row, deps.faceConsentVersion())) {
    throw new JobCancelledError(
      row.face_consent_at === null
        ? CANCELLED_BY_CONSENT_WITHDRAWAL
        : CANCELLED_BY_CONSENT_TEXT_CHANGE,
    );
  }
  // An erased creator's job does no work either (the erasure marked the style failed; its job removes the rows).
  if (row.erased_at) throw new JobCancelledError(CANCELLED_BY_ERASURE);
  if (!isStyleId(row.style)) throw new StyleEngineError("This style is not available.", false);
  await deps.ensureSpace?.();

  const engine = deps.engine();
  await db
    .updateTable("stylized_images")
    .set({
      status: "processing",
      provider: engine.id,
      attempts: context.attempt,
      error: null,
      updated_at: context.now().toISOString(),
    })
    .where("id", "=", row.id)
    .execute();

  const original = await deps.store.read(row.original_key);
  // Styling time per style (a fixed set of ids, checked above) for the metrics, whether it made the look or failed.
  const startedAt = performance.now();
  const result = await engine
    .stylize(original, row.style, { signal: context.signal, seed: row.seed ?? undefined })
    .then(
      (made) => {
        observeStyling(row.style, "done", (performance.now() - startedAt) / 1000);
        return made;
      },
      (error: unknown) => {
        observeStyling(row.style, "failed", (performance.now() - startedAt) / 1000);
        throw error;
      },
    );
  context.signal.throwIfAborted();
  // The one place a styled file is made: it is stored with its manifest, never without.
  const data = await deps.credentials.sign(
    result.data,
    styledFileFacts(result.data, {
      original: originalIngredient(original),
      when: context.now(),
    }),
  );
  context.signal.throwIfAborted();

  const key = newFileKey("styled", result.format);
  await deps.store.write(key, data);
  crashPoint("styled-file-stored");
  const now = context.now().toISOString();
  const updated = await db
    .updateTable("stylized_images")
    .set({
      status: "completed",
      provider: engine.id,
      file_key: key,
      width: result.width,
      height: result.height,
      bytes: data.byteLength,
      upscaled_by: result.upscaledBy ?? null,
      // The pixels really made: the engine says when it enlarged; unknown when something enlarged it without saying.
      native_width: result.native?.width ?? (result.upscaledBy ? null : result.width),
      native_height: result.native?.height ?? (result.upscaledBy ? null : result.height),
      error: null,
      updated_at: now,
      completed_at: now,
    })
    .where("id", "=", row.id)
    .where("status", "=", "processing")
    .executeTakeFirst();
  // Deleted, called off by a ban (or finished elsewhere) while we worked: keep nothing behind.
  if (Number(updated.numUpdatedRows) === 0) {
    await deps.store.remove(key);
    const owner = await db
      .selectFrom("users")
      .select(["banned", "erased_at"])
      .where("id", "=", row.user_id)
      .executeTakeFirst();
    if (owner?.banned) throw new JobCancelledError(CANCELLED_BY_SUSPENSION);
    if (owner?.erased_at) throw new JobCancelledError(CANCELLED_BY_ERASURE);
  }
}

/**
 * A style whose attempt threw, while it still waits or runs: back to `pending`
 * for the job's next attempt, or `failed` after its last, with why.
 */
async function markStylizeAttemptFailed(
  db: DB,
  payload: StylizeJobPayload,
  error: unknown,
  now: Date,
  status: "pending" | "failed",
): Promise<void> {
  await db
    .updateTable("stylized_images")
    .set({ status, error: stylizeFailureMessage(error), updated_at: now.toISOString() })
    .where("id", "=", payload.stylizedImageId)
    .where("status", "in", ["pending", "processing"])
    .execute();
}

/** The job handler the worker registers for STYLIZE_JOB. */
export function stylizeJobHandler(deps: StylizeJobDeps): JobHandler<StylizeJobPayload> {
  return {
    parse: (payload) => stylizeJobPayload.parse(payload),
    run: (payload, context) => runStylizeJob(deps, payload, context),
    onRetry: (payload, error, context) =>
      markStylizeAttemptFailed(context.db, payload, error, context.now(), "pending"),
    onFailed: (payload, error, context) =>
      markStylizeAttemptFailed(context.db, payload, error, context.now(), "failed"),
    timeoutMs: deps.timeoutMs ?? 3 * 60_000,
  };
}
