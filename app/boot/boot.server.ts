import { ensureSuperAdmin, seedDemo } from "~/boot/seed.server";
import { getConfig } from "~/infra/config.server";
import { getDb, migrateToLatest } from "~/infra/db.server";
import { getFileStore, getObjectStore, purgeDeletedFiles } from "~/infra/file-store.server";
import { sweepObjectStore } from "~/infra/file-intents.server";
import { deleteExpiredCredentials } from "~/features/accounts/sessions/sessions.server";
import { forgetOldSignInCounts } from "~/features/accounts/sessions/login-throttle.server";
import { forgetOldRateLimitHits } from "~/infra/shared-rate-limits.server";
import { forgetOldVisitorDays } from "~/features/market/analytics/listing-visitors.server";
import { flushAllListingViews } from "~/features/market/analytics/listing-view-counts.server";
import { startJobWorker, stopJobWorker } from "~/boot/start-worker.server";
import { sweepOrphanFiles } from "~/infra/orphan-files.server";
import { closeFilesToOthers } from "~/infra/local-file-store.server";
import { ensureStyleSamples } from "~/engines/styling/style-samples.server";
import { enableVariantWarmUp } from "~/infra/image-variants.server";
import { warmSampleVariants } from "~/features/landing/sample-variants.server";
import { sweepExpiredOriginals } from "~/features/studio/public.server";
import { purgeOldMailJobs } from "~/features/mail/public.server";
import { readReportFiguresAtScrape } from "~/boot/report-figures.server";
import type { Config } from "~/infra/config.server";
import { startupRefusal } from "~/infra/database-errors.server";
import {
  migrateNonExpiringShopifyTokens,
  refreshShopifyPairsNearExpiry,
} from "~/features/publishing/shopify/shopify-tokens.server";
import { runPeriodically, stopPeriodicTasks } from "~/infra/run-periodically.server";
import { enlargeUndersizedListings, sendFollowDigests } from "~/features/market/public.server";
import { configuredOrigin } from "~/infra/configured-origin.server";
import { selectUpscaler } from "~/engines/upscaling/select-upscaler.server";
import { signingIdentity } from "~/engines/provenance/signing-identity.server";
import { contentCredentialsFor } from "~/engines/provenance/content-credentials.server";

/** How old a file without a row must be before a web or worker process's start-time sweep removes it. */
const SHARED_VOLUME_GRACE_MS = 60 * 1000;

export interface BootOptions {
  /** Also create the demo data (local use; `npm start`). */
  seedDemo?: boolean;
  log?: (line: string) => void;
  /** Start the job worker and the periodic work as ROLE says (default true; false for one-off commands: neither runs, whatever ROLE says). */
  worker?: boolean;
}

/**
 * Everything the process does once before serving: migrate, make sure the
 * super admin exists, optionally seed demo data, then start what its ROLE
 * runs: the job worker and the periodic work in `all` and `worker`, neither
 * in `web` (another process, sharing the database, runs them).
 */
export async function boot(options: BootOptions = {}) {
  const log = options.log ?? console.log;
  // /metrics reads the open and overdue reports at each scrape.
  readReportFiguresAtScrape();
  const startedAt = new Date();
  const config = getConfig();
  const db = getDb();
  // The first contact with the database: unreachable or refused, the server does not start (one line, no stack).
  const applied = await migrateToLatest(db).catch((error: unknown) => {
    throw startupRefusal(error) ?? error;
  });
  if (applied.length > 0) log(`Applied migrations: ${applied.join(", ")}`);
  // Alone on its volume (ROLE=all) no work is in flight before this start. A web or worker
  // process may share the volume with the other role, which may have written a file a moment ago
  // and not yet committed the row naming it: only files older than a minute are taken for orphans.
  const sweepBefore =
    config.ROLE === "all" ? startedAt : new Date(startedAt.getTime() - SHARED_VOLUME_GRACE_MS);
  // Files an older version stored readable to others (0644 in 0755 folders) are closed to them.
  closeFilesToOthers(config.filesDir, log);
  const orphans = await sweepOrphanFiles(db, config.filesDir, sweepBefore);
  if (orphans.removed.length + orphans.partials > 0) {
    log(
      `Removed ${orphans.removed.length} files no row referred to and ${orphans.partials} half-written files, left by an earlier process.`,
    );
  }
  await ensureStyleSamples({ log });
  // From here on, listings make their previews' AVIF/WebP/smaller copies as they are listed; the samples get theirs in the background.
  enableVariantWarmUp();
  await warmSampleVariants(getFileStore());
  await ensureSuperAdmin(db, config, log);
  // Who signs the files' Content Credentials: the operator's C2PA_CERT, or a certificate made now, on the first start (decision 095).
  log(describeSigner(await signingIdentity(config)));
  if (options.seedDemo) await seedDemo(db, log);
  if (options.worker === false) return { config };
  if (config.ROLE !== "web") {
    startJobWorker(config, log);
    startPeriodicWork(config, log);
  }
  log(`Role: ${describeRole(config.ROLE)}.`);
  return { config };
}

function describeSigner(identity: Awaited<ReturnType<typeof signingIdentity>>): string {
  const until = identity.validTo.toISOString().slice(0, 10);
  return identity.selfMade
    ? `Content Credentials: signed with this server's own certificate (DATA_DIR/content-credentials.pem, until ${until}), which no reader trusts; set C2PA_CERT and C2PA_KEY to sign with yours.`
    : `Content Credentials: signed as ${identity.subject.replace(/\n/g, ", ")} (C2PA_CERT, until ${until}).`;
}

function describeRole(role: Config["ROLE"]): string {
  if (role === "web")
    return "web (serves requests; another process runs the jobs and periodic work)";
  if (role === "worker")
    return "worker (runs the jobs and periodic work; answers only /healthz and /readyz)";
  return "all (serves requests, runs the jobs and periodic work)";
}

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * Everything this process runs on a timer, each under its database lease
 * (app/infra/run-periodically.server.ts): with several worker processes each
 * task runs once per period, in whichever process takes its lease. Each runs
 * at start too (when no other process ran it within its period).
 */
function startPeriodicWork(config: Config, log: (line: string) => void) {
  startDeletedFilesPurge(config.filesDir);
  startObjectStoreSweep(log);
  startExpiredCredentialsSweep();
  startOriginalsRetention(config, log);
  startMailRetention(config, log);
  startShopifyTokenMigration(config, log);
  startSmallListingsEnlargement(config, log);
  startFollowDigests(config, log);
  startPeriodicProbe(config, log);
}

/** Removed files are kept briefly for backups (file-store.server.ts); this purges them every 5 minutes. */
function startDeletedFilesPurge(filesDir: string) {
  runPeriodically("purge-deleted-files", 5 * MINUTE_MS, () => purgeDeletedFiles(filesDir));
}

/**
 * With object storage: deletes orphaned objects and carries out due removals
 * (file-intents.server.ts) every 5 minutes. Nothing to do without it.
 */
function startObjectStoreSweep(log: (line: string) => void) {
  const store = getObjectStore();
  if (!store) return;
  runPeriodically("object-store-sweep", 5 * MINUTE_MS, async () => {
    const { deleted } = await sweepObjectStore(getDb(), store);
    if (deleted.length > 0) log(`Deleted ${deleted.length} objects no row refers to.`);
  });
}

/** Sessions, tokens and links past their expiry are deleted once an hour. */
function startExpiredCredentialsSweep() {
  runPeriodically("delete-expired-credentials", 60 * MINUTE_MS, () =>
    deleteExpiredCredentials(getDb()),
  );
  // The abuse counts (hashed addresses and emails) are forgotten past their window, hourly.
  runPeriodically("forget-old-request-counts", 60 * MINUTE_MS, async () => {
    const now = new Date();
    await forgetOldSignInCounts(getDb(), now);
    await forgetOldRateLimitHits(getDb(), now);
    // The listings' visitors (hashes) of the days before yesterday; their counts stay.
    await forgetOldVisitorDays(getDb(), now);
  });
}

/**
 * ORIGINALS_RETENTION_DAYS: removes the originals older than that once a day
 * (original-retention.server.ts). Nothing runs when it is unset. Should two
 * sweeps ever overlap, each original is still marked by one guarded UPDATE,
 * and only the process that marked it removes its file.
 */
function startOriginalsRetention(config: Config, log: (line: string) => void) {
  if (config.ORIGINALS_RETENTION_DAYS === undefined) return;
  const retentionDays = config.ORIGINALS_RETENTION_DAYS;
  runPeriodically("originals-retention", DAY_MS, async () => {
    const removed = await sweepExpiredOriginals(getDb(), getFileStore(), {
      retentionDays,
      now: new Date(),
    });
    if (removed.length > 0)
      log(`Removed ${removed.length} originals older than ${retentionDays} days.`);
  });
}

/** MAIL_RETENTION_DAYS: the job rows of messages sent or given up on longer ago are purged once a day. */
function startMailRetention(config: Config, log: (line: string) => void) {
  const retentionDays = config.MAIL_RETENTION_DAYS;
  runPeriodically("mail-retention", DAY_MS, async () => {
    const purged = await purgeOldMailJobs(getDb(), { retentionDays, now: new Date() });
    if (purged > 0) log(`Purged ${purged} mail jobs older than ${retentionDays} days.`);
  });
}

/**
 * Shopify stops accepting non-expiring offline tokens on 2027-01-01: connections
 * still on one are exchanged for expiring tokens once a day (they are also
 * exchanged on first use). Once a day too, the pairs whose refresh token runs
 * out within a week are renewed (a refresh token lasts 90 days and is only
 * replaced when used). Nothing runs without the app's credentials.
 */
function startShopifyTokenMigration(config: Config, log: (line: string) => void) {
  if (!config.SHOPIFY_CLIENT_ID || !config.SHOPIFY_CLIENT_SECRET) return;
  const app = { clientId: config.SHOPIFY_CLIENT_ID, clientSecret: config.SHOPIFY_CLIENT_SECRET };
  runPeriodically("shopify-token-migration", DAY_MS, async () => {
    const count = await migrateNonExpiringShopifyTokens(getDb(), { app, now: () => new Date() });
    if (count > 0) log(`Exchanged ${count} non-expiring Shopify tokens for expiring ones.`);
  });
  runPeriodically("shopify-token-refresh", DAY_MS, async () => {
    const { renewed, reconnect } = await refreshShopifyPairsNearExpiry(getDb(), {
      app,
      now: () => new Date(),
    });
    if (renewed + reconnect > 0)
      log(
        `Renewed ${renewed} Shopify connections whose refresh token was running out; ${reconnect} need reconnecting.`,
      );
  });
}

/**
 * Listings made before sold files had a size (at least 2048 px, docs/decisions/092) get their
 * file upscaled, 20 an hour, with the upscaler a new listing gets (fal.ai's with FAL_KEY).
 * Nothing to do once none is left.
 */
function startSmallListingsEnlargement(config: Config, log: (line: string) => void) {
  runPeriodically("enlarge-small-listings", 60 * MINUTE_MS, async () => {
    const enlarged = await enlargeUndersizedListings(getDb(), getFileStore(), {
      upscaler: selectUpscaler(config),
      credentials: contentCredentialsFor(config),
      now: new Date(),
    });
    if (enlarged > 0) log(`Upscaled the files of ${enlarged} listings to their sale size.`);
  });
}

/**
 * The follows' digests (docs/decisions/096): every FOLLOW_DIGEST_CHECK_SECONDS (an hour by
 * default), under the lease so one process across the workers does it, each confirmed follow due
 * (its last digest a day old) whose creator listed something new gets one mail job. Nothing is
 * sent without the server's public address (the links need it).
 */
function startFollowDigests(config: Config, log: (line: string) => void) {
  const origin = configuredOrigin(config);
  if (!origin) return;
  runPeriodically("follow-digests", config.FOLLOW_DIGEST_CHECK_SECONDS * 1000, async () => {
    const queued = await sendFollowDigests(getDb(), { origin, now: new Date() });
    if (queued > 0) log(`Queued ${queued} follow digests in process ${process.pid}.`);
  });
}

/** PERIODIC_PROBE_SECONDS: a task that only logs a line, to see that periodic work runs once across the workers. */
function startPeriodicProbe(config: Config, log: (line: string) => void) {
  if (config.PERIODIC_PROBE_SECONDS === undefined) return;
  runPeriodically("periodic-probe", config.PERIODIC_PROBE_SECONDS * 1000, async () => {
    log(`Periodic probe ran at ${new Date().toISOString()} in process ${process.pid}.`);
  });
}

/**
 * Before the process exits: write the listings' views still in memory, stop
 * the periodic work, hand running jobs back to the queue and close the database.
 */
export async function shutdown() {
  await flushAllListingViews().catch((error: unknown) =>
    console.error("Could not write the listings' last views:", error),
  );
  await stopPeriodicTasks();
  await stopJobWorker();
  await getDb().destroy();
}
