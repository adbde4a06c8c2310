import { ensureSuperAdmin, seedDemo } from "~/boot/seed.server";
import { getConfig } from "~/infra/config.server";
import { getDb, migrateToLatest } from "~/infra/db.server";
import { getFileStore, getObjectStore, purgeDeletedFiles } from "~/infra/file-store.server";
import { sweepObjectStore } from "~/infra/file-intents.server";
import { deleteExpiredCredentials } from "~/features/accounts/sessions.server";
import { startJobWorker, stopJobWorker } from "~/boot/start-worker.server";
import { sweepOrphanFiles } from "~/infra/orphan-files.server";
import { ensureStyleSamples } from "~/engines/styling/style-samples.server";
import { enableVariantWarmUp } from "~/infra/image-variants.server";
import { warmSampleVariants } from "~/features/landing/sample-variants.server";
import { sweepExpiredOriginals } from "~/features/studio/lends.server";
import { tieStudioToOtherFeatures } from "~/boot/studio-ties.server";
import type { Config } from "~/infra/config.server";
import { startupRefusal } from "~/infra/database-errors.server";
import { migrateNonExpiringShopifyTokens } from "~/features/publishing/shopify-tokens.server";

export interface BootOptions {
  /** Also create the demo data (local use; `npm start`). */
  seedDemo?: boolean;
  log?: (line: string) => void;
  /** Start the background job worker (default true; off for one-off commands). */
  worker?: boolean;
}

/**
 * Everything the process does once before serving: migrate, make sure the
 * super admin exists, optionally seed demo data, start background work.
 */
export async function boot(options: BootOptions = {}) {
  const log = options.log ?? console.log;
  // The studio imports no other feature: what the market and publishing hold of its images is handed in here.
  tieStudioToOtherFeatures();
  const startedAt = new Date();
  const config = getConfig();
  const db = getDb();
  // The first contact with the database: unreachable or refused, the server does not start (one line, no stack).
  const applied = await migrateToLatest(db).catch((error: unknown) => {
    throw startupRefusal(error) ?? error;
  });
  if (applied.length > 0) log(`Applied migrations: ${applied.join(", ")}`);
  const orphans = await sweepOrphanFiles(db, config.filesDir, startedAt);
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
  if (options.seedDemo) await seedDemo(db, log);
  await deleteExpiredCredentials(db);
  if (options.worker !== false) {
    startJobWorker(config, log);
    startDeletedFilesPurge(config.filesDir);
    startObjectStoreSweep(log);
    startOriginalsRetention(config, log);
    startShopifyTokenMigration(config, log);
  }
  return { config };
}

const PURGE_EVERY_MS = 5 * 60 * 1000;
let purgeTimer: NodeJS.Timeout | undefined;

/** Removed files are kept briefly for backups (file-store.server.ts); this purges them, now and every 5 minutes. */
function startDeletedFilesPurge(filesDir: string) {
  const purge = () =>
    void purgeDeletedFiles(filesDir).catch((error) =>
      console.error("Purging deleted files:", error),
    );
  purge();
  purgeTimer ??= setInterval(purge, PURGE_EVERY_MS).unref();
}

let objectSweepTimer: NodeJS.Timeout | undefined;

/**
 * With object storage: deletes orphaned objects and carries out due removals
 * (file-intents.server.ts), now and every 5 minutes. Nothing to do without it.
 */
function startObjectStoreSweep(log: (line: string) => void) {
  const store = getObjectStore();
  if (!store) return;
  const sweep = () =>
    void sweepObjectStore(getDb(), store)
      .then(({ deleted }) => {
        if (deleted.length > 0) log(`Deleted ${deleted.length} objects no row refers to.`);
      })
      .catch((error: unknown) =>
        console.error(
          "Sweeping the object store:",
          error instanceof Error ? error.message : String(error),
        ),
      );
  sweep();
  objectSweepTimer ??= setInterval(sweep, PURGE_EVERY_MS).unref();
}

const RETENTION_EVERY_MS = 24 * 60 * 60 * 1000;
let retentionTimer: NodeJS.Timeout | undefined;

/**
 * ORIGINALS_RETENTION_DAYS: removes the originals older than that, now and
 * once a day (original-retention.server.ts). Nothing runs when it is unset.
 * Several processes sweeping at once is harmless: each original is marked by
 * one guarded UPDATE, and only the process that marked it removes its file.
 */
function startOriginalsRetention(config: Config, log: (line: string) => void) {
  if (config.ORIGINALS_RETENTION_DAYS === undefined) return;
  const sweep = () =>
    void sweepExpiredOriginals(getDb(), getFileStore(), {
      retentionDays: config.ORIGINALS_RETENTION_DAYS,
      now: new Date(),
    })
      .then((removed) => {
        if (removed.length > 0)
          log(
            `Removed ${removed.length} originals older than ${config.ORIGINALS_RETENTION_DAYS} days.`,
          );
      })
      .catch((error) => console.error("Removing expired originals:", error));
  sweep();
  retentionTimer ??= setInterval(sweep, RETENTION_EVERY_MS).unref();
}

let shopifyMigrationTimer: NodeJS.Timeout | undefined;

/**
 * Shopify stops accepting non-expiring offline tokens on 2027-01-01: connections
 * still on one are exchanged for expiring tokens, now and once a day (they are
 * also exchanged on first use). Nothing runs without the app's credentials.
 */
function startShopifyTokenMigration(config: Config, log: (line: string) => void) {
  if (!config.SHOPIFY_CLIENT_ID || !config.SHOPIFY_CLIENT_SECRET) return;
  const app = { clientId: config.SHOPIFY_CLIENT_ID, clientSecret: config.SHOPIFY_CLIENT_SECRET };
  const sweep = () =>
    void migrateNonExpiringShopifyTokens(getDb(), { app, now: () => new Date() })
      .then((count) => {
        if (count > 0) log(`Exchanged ${count} non-expiring Shopify tokens for expiring ones.`);
      })
      .catch((error) => console.error("Exchanging non-expiring Shopify tokens:", error));
  sweep();
  shopifyMigrationTimer ??= setInterval(sweep, RETENTION_EVERY_MS).unref();
}

/** Before the process exits: hand running jobs back to the queue and close the database. */
export async function shutdown() {
  clearInterval(purgeTimer);
  purgeTimer = undefined;
  clearInterval(objectSweepTimer);
  objectSweepTimer = undefined;
  clearInterval(retentionTimer);
  retentionTimer = undefined;
  clearInterval(shopifyMigrationTimer);
  shopifyMigrationTimer = undefined;
  await stopJobWorker();
  await getDb().destroy();
}
