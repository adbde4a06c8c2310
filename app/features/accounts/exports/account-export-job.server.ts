import fsp from "node:fs/promises";
import { z } from "zod";
import type { UserRow } from "#db/schema";
import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { newFileKey } from "~/infra/file-store.server";
import type { JobHandler, JobRunContext } from "~/infra/jobs/job-worker.server";
import { announceJobs, enqueueJob } from "~/infra/jobs/job-queue.server";
import type { Procedure } from "~/infra/procedure.server";
import { invoke } from "~/infra/procedure.server";
import { plainContext, type FeatureTies } from "~/infra/call-context.server";
import { configuredOrigin, mailLinkOrigin } from "~/infra/configured-origin.server";
import {
  writeZipFile,
  type StreamedZipEntry,
  type WrittenZipEntry,
} from "~/infra/streamed-zip.server";
import type { ExportedFile } from "~/lib/exported-files";
import { queueMail } from "~/features/mail/public.server";
import { accountOf } from "~/features/accounts/account.server";
import { faceVerifiedAt } from "~/features/accounts/verified-faces.server";
import { credentialsForExport } from "~/features/accounts/sessions/sessions.server";
import { avatarKeyOf } from "~/features/accounts/profile/avatar.server";
import {
  exportReadme,
  type NoticeSection,
} from "~/features/accounts/exports/account-export-readme";
import {
  ACCOUNT_EXPORT_JOB,
  EXPORT_LINK_MS,
  EXPORT_SWEEP_JOB,
  exportDownloadPath,
  sweepExpiredExports,
  type AccountExportJobPayload,
} from "~/features/accounts/exports/account-exports.server";
import { renderExportReadyMail } from "~/features/accounts/exports/account-export-mail.server";

/** What account.json says in place of the face descriptor. */
export const VERIFIED_FACE_EXPORT_NOTE =
  "A face descriptor made from your verification selfie is kept (biometric data); it is not included in this export. Delete it in Settings, Privacy, or with DELETE /api/account/face.";

/**
 * The job that builds a creator's data export: one zip, written entry by entry
 * to the file store (app/infra/streamed-zip.server.ts), of
 *
 * - README.txt: what each entry holds, and GDPR Art. 15(1)'s information (from the privacy notice);
 * - account.json: the profile, the consent record and the consent log (every consent given, with
 *   the text agreed to, and every withdrawal), whether a verified face (a face descriptor) is
 *   kept and since when, never the descriptor itself, the sessions and API tokens (never a
 *   secret or its hash), and the connected platforms with the wallet, shop or account name given;
 * - images.json: each upload's and style's metadata, with the engine or vendor that processed it;
 * - profile/photo.jpg: the profile photo, when there is one;
 * - listings.json, sales.json (no buyer's data), followers.json (the count, never an address) and payouts.json (the payout account's state, balance and transfers);
 * - every file of the creator's, byte for byte as stored: images/originals, images/styles,
 *   images/optimized, images/listings (the files sold), images/previews, kits/;
 * - files.json: each entry's size and SHA-256, and any file a row names that was not on disk.
 *
 * Each feature lists its own rows and files through a procedure of its face,
 * run for the export's creator (so their access rules apply); which ones is
 * handed in by the job registry (app/boot/job-kinds.server.ts), so this
 * feature does not reach into those that build on it. When the zip is stored,
 * the export turns ready in one transaction with the mail that carries its
 * link and the sweep that removes it once the link has expired. An export
 * whose row is gone meanwhile (the account was erased) keeps no file.
 */

// The sources are procedures with their own input schemas; only their results are relied on here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type SourceProcedure<R> = Procedure<"user", any, R>;

export interface AccountExportSources {
  studio: SourceProcedure<{ files: ExportedFile[]; uploads: unknown[]; styles: unknown[] }>;
  market: SourceProcedure<{
    listings: unknown[];
    sales: unknown[];
    followers: unknown;
    files: ExportedFile[];
  }>;
  publishing: SourceProcedure<{
    integrations: unknown[];
    modelReleases?: unknown[];
    files: ExportedFile[];
  }>;
  payouts: SourceProcedure<unknown>;
  /** The consent log, and the version of the consent text shown now (the account's consent counts only when it is to that text). */
  privacy: SourceProcedure<{
    currentFaceConsentVersion: string;
    consentLog: unknown[];
    /** The privacy notice as stated now, for README.txt. */
    notice: NoticeSection[];
  }>;
}

export interface AccountExportJobDeps {
  store: FileStore;
  config: () => Config;
  sources: AccountExportSources;
  /** What features hand each other (app/boot/studio-ties.server.ts), for the sources' contexts. */
  ties: FeatureTies;
  /** Throws when the disk has too little room left for new files. */
  ensureSpace?: () => Promise<void>;
}

const payloadSchema = z.object({ exportId: z.string().min(1).max(64) });

export const EXPORT_FAILED = "The export could not be built. Please ask for it again.";

/** Long: a creator with many large images makes a large zip. */
const EXPORT_TIMEOUT_MS = 30 * 60_000;

function jsonEntry(name: string, value: unknown): StreamedZipEntry {
  return { name, source: Buffer.from(`${JSON.stringify(value, null, 2)}\n`, "utf8") };
}

async function buildExport(
  deps: AccountExportJobDeps,
  payload: AccountExportJobPayload,
  context: JobRunContext,
): Promise<void> {
  const { db } = context;
  const row = await db
    .selectFrom("account_exports")
    .selectAll()
    .where("id", "=", payload.exportId)
    .executeTakeFirst();
  if (!row || row.status !== "pending") return; // erased, or already done
  const user = await db
    .selectFrom("users")
    .selectAll()
    .where("id", "=", row.user_id)
    .executeTakeFirst();
  if (!user) return;
  await deps.ensureSpace?.();
  const config = deps.config();
  const now = context.now();
  const ctx = plainContext(configuredOrigin(config) ?? "http://localhost", {
    db,
    config,
    now,
    clientIp: "job",
    ties: deps.ties,
  });
  const [faceAt, credentials, studio, market, publishing, payouts, privacy] = await Promise.all([
    faceVerifiedAt(db, user.id),
    credentialsForExport(db, user.id),
    invoke(deps.sources.studio, user, {}, ctx),
    invoke(deps.sources.market, user, {}, ctx),
    invoke(deps.sources.publishing, user, {}, ctx),
    invoke(deps.sources.payouts, user, {}, ctx),
    invoke(deps.sources.privacy, user, {}, ctx),
  ]);
  const account = await accountOf(db, user, now, privacy.currentFaceConsentVersion);
  const avatarKey = avatarKeyOf(user.profile_image_url);
  const files = [
    ...(avatarKey ? [{ key: avatarKey, name: "profile/photo.jpg" }] : []),
    ...studio.files,
    ...market.files,
    ...publishing.files,
  ];
  const written: WrittenZipEntry[] = [];
  const missing: string[] = [];
  async function* entries(): AsyncGenerator<StreamedZipEntry> {
    yield {
      name: "README.txt",
      source: Buffer.from(
        exportReadme({ exportedAt: now.toISOString(), notice: privacy.notice }),
        "utf8",
      ),
    };
    yield jsonEntry("account.json", {
      exportedAt: now.toISOString(),
      account,
      consentLog: privacy.consentLog,
      // The descriptor is biometric data: the export says it exists, never its numbers (decision record 083).
      verifiedFace: faceAt
        ? { verified: true, at: faceAt, descriptor: VERIFIED_FACE_EXPORT_NOTE }
        : { verified: false, at: null },
      sessions: credentials.sessions,
      apiTokens: credentials.apiTokens,
      integrations: publishing.integrations,
    });
    yield jsonEntry("images.json", { uploads: studio.uploads, styles: studio.styles });
    yield jsonEntry("listings.json", market.listings);
    yield jsonEntry("sales.json", market.sales);
    yield jsonEntry("followers.json", market.followers);
    yield jsonEntry("payouts.json", payouts);
    if (publishing.modelReleases?.length)
      yield jsonEntry("model-releases.json", publishing.modelReleases);
    const named = new Set<string>();
    for (const file of files) {
      if (named.has(file.name)) continue;
      if (!(await deps.store.exists(file.key))) {
        if (!file.optional) missing.push(file.name);
        continue;
      }
      named.add(file.name);
      yield { name: file.name, source: () => deps.store.stream(file.key) };
    }
    yield jsonEntry("files.json", { files: [...written], missing });
  }
  const scratch = await deps.store.scratchPath();
  let key: string | null = null;
  try {
    await writeZipFile(scratch, entries(), {
      modified: now,
      signal: context.signal,
      onEntryWritten: (entry) => written.push(entry),
    });
    const bytes = (await fsp.stat(scratch)).size;
    key = newFileKey("exports", "zip");
    await deps.store.putFile(key, scratch);
    await markReady(db, deps, { exportId: row.id, user, key, bytes, now: context.now() });
    key = null;
  } finally {
    await fsp.rm(scratch, { force: true });
    // Not recorded (the row is gone, or the attempt failed after storing): no file stays behind.
    if (key) await deps.store.remove(key);
  }
}

/**
 * The export is ready: its row names the zip and when its link expires, the
 * sweep is queued for that time, and the creator is mailed the link, all in
 * one transaction. Throws when the row is no longer pending (the caller then
 * removes the zip).
 */
async function markReady(
  db: DB,
  deps: AccountExportJobDeps,
  input: { exportId: string; user: UserRow; key: string; bytes: number; now: Date },
): Promise<void> {
  const { now } = input;
  const expiresAt = new Date(now.getTime() + EXPORT_LINK_MS);
  const origin = mailLinkOrigin(deps.config(), "The data export's mail");
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("account_exports")
      .set({
        status: "ready",
        file_key: input.key,
        bytes: input.bytes,
        error: null,
        ready_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
        updated_at: now.toISOString(),
      })
      .where("id", "=", input.exportId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw new ExportGone();
    await enqueueJob(trx, {
      kind: EXPORT_SWEEP_JOB,
      payload: {},
      now,
      runAt: new Date(expiresAt.getTime() + 1000),
      userId: null,
    });
    const row = await trx
      .selectFrom("account_exports")
      .selectAll()
      .where("id", "=", input.exportId)
      .executeTakeFirstOrThrow();
    if (origin && exportDownloadPath(row, now)) {
      await queueMail(trx, {
        to: input.user.email,
        ...renderExportReadyMail({
          firstName: input.user.first_name,
          settingsLink: `${origin}/settings/export`,
        }),
        now,
      });
    }
  });
  announceJobs();
}

/** The export's row is no longer pending: the account was erased while the zip was built. */
class ExportGone extends Error {}

export function accountExportJobHandler(
  deps: AccountExportJobDeps,
): JobHandler<AccountExportJobPayload> {
  return {
    parse: (payload) => payloadSchema.parse(payload),
    async run(payload, context) {
      try {
        await buildExport(deps, payload, context);
      } catch (error) {
        if (error instanceof ExportGone) return;
        throw error;
      }
    },
    async onFailed(payload, error, context) {
      console.error(
        `Data export ${payload.exportId} failed:`,
        error instanceof Error ? error.message : error,
      );
      const at = context.now().toISOString();
      await context.db
        .updateTable("account_exports")
        .set({ status: "failed", error: EXPORT_FAILED, updated_at: at })
        .where("id", "=", payload.exportId)
        .where("status", "=", "pending")
        .execute();
    },
    timeoutMs: EXPORT_TIMEOUT_MS,
  };
}

/** The sweep of expired exports' zips, as a job (queued for each ready export's expiry). */
export function exportSweepJobHandler(deps: {
  store: FileStore;
}): JobHandler<Record<string, never>> {
  return {
    parse: () => ({}),
    async run(_payload, context) {
      await sweepExpiredExports(context.db, deps.store, context.now());
    },
  };
}

export { ACCOUNT_EXPORT_JOB, EXPORT_SWEEP_JOB };
