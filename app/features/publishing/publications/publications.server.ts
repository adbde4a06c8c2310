import crypto from "node:crypto";
import type { ListingPlatformRow, ListingPlatformStatus, StylizedImageRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { newId } from "~/infra/ids.server";
import { deriveKey } from "~/infra/keys.server";
import { announceJobs, enqueueJob } from "~/infra/jobs/job-queue.server";
import { tooManyRequests } from "~/infra/errors.server";
import { lockForTransaction } from "~/infra/sql-dialect.server";
import type {
  PublishContent,
  PublishOutcome,
} from "~/features/publishing/connectors/connector.server";
import { removeArtifact } from "~/infra/artifact-files.server";
import { findPlatform, needsConnection, PLATFORM_IDS } from "~/features/publishing/platforms";
import type { Platform, PlatformId } from "~/features/publishing/platforms";
import { DONE_STATUSES } from "~/features/publishing/types";
import type { PublicationStatus } from "~/features/publishing/types";
import { activeListingIdsAmong, parseTags } from "~/features/market/public.server";
import { findIntegration } from "~/features/publishing/integrations/integrations.server";
import { crashPoint } from "~/infra/crash-points.server";
import { submissionNote } from "~/features/publishing/connectors/sftp-submission-connector.server";

/**
 * Publications: one row per stylized image and platform (listing_platforms)
 * holding what was sent, its state, URL and last error. A request upserts the
 * row as `queued` and enqueues its job in the same transaction; the job
 * (publish-job.server.ts) runs the platform's connector and records the
 * outcome, but only if no newer request replaced the row's revision meanwhile.
 */

export const PUBLISH_JOB = "publish-to-platform";

export interface PublishJobPayload {
  publicationId: string;
  revision: number;
  origin: string;
}

export interface PublicationJson {
  /** The platform id (as the launch answer gives it). */
  id: PlatformId;
  name: string;
  icon: string;
  /** The live listing, or the kit or package to download; null otherwise. */
  url: string | null;
  status: PublicationStatus;
  error: string | null;
  /** With `live`: something the creator should know, e.g. that the storefront is password-protected. */
  note: string | null;
  /** The mint kit or export package (owner-only, signed, expiring). */
  downloadUrl: string | null;
  publicationId: string;
  stylizedImageId: string;
  updatedAt: string;
}

const DOWNLOAD_TTL_SECONDS = 60 * 60;

function downloadSignature(publicationId: string, userId: string, expires: number): string {
  return crypto
    .createHmac("sha256", deriveKey("publication-downloads"))
    .update(`${publicationId}\n${userId}\n${expires}`)
    .digest("base64url");
}

export function publicationDownloadUrl(
  origin: string,
  row: Pick<ListingPlatformRow, "id" | "user_id">,
  now = Date.now(),
): string {
  const expires = Math.floor(now / 1000) + DOWNLOAD_TTL_SECONDS;
  const sig = downloadSignature(row.id, row.user_id, expires);
  return `${origin}/api/publications/${encodeURIComponent(row.id)}/download?exp=${expires}&sig=${sig}`;
}

/** Checks the `exp` and `sig` query parameters of a link made by publicationDownloadUrl. */
export function verifyPublicationDownload(
  publicationId: string,
  userId: string,
  link: { exp?: string; sig?: string },
  now = Date.now(),
): boolean {
  const expires = Number(link.exp);
  const sig = link.sig ?? "";
  if (!Number.isInteger(expires) || expires * 1000 < now) return false;
  const expected = Buffer.from(downloadSignature(publicationId, userId, expires));
  const given = Buffer.from(sig);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/**
 * Rows as they stand now: an own-marketplace row that went live shows as
 * `withdrawn` once its listing is no longer active (the creator took it down),
 * so nothing says live where it is not.
 */
/** A row as shown: its stored state, or `withdrawn` (see currentPublications). */
export type ShownPublication = Omit<ListingPlatformRow, "status"> & { status: PublicationStatus };

export async function currentPublications(
  db: DB,
  rows: ListingPlatformRow[],
): Promise<ShownPublication[]> {
  const listingIds = rows
    .filter((row) => row.platform === "marketplace" && row.status === "live" && row.listing_id)
    .map((row) => row.listing_id!);
  if (listingIds.length === 0) return rows;
  const active = await activeListingIdsAmong(db, listingIds);
  return rows.map((row) =>
    row.platform === "marketplace" &&
    row.status === "live" &&
    (!row.listing_id || !active.has(row.listing_id))
      ? {
          ...row,
          status: "withdrawn" as const,
          url: null,
          last_error: "The listing was taken down.",
        }
      : row,
  );
}

export function publicationJson(
  row: ShownPublication,
  origin: string,
  now = Date.now(),
): PublicationJson {
  const platform = findPlatform(row.platform);
  const status = row.status;
  const downloadUrl =
    row.artifact_key && (status === "ready_to_mint" || status === "export_ready")
      ? publicationDownloadUrl(origin, row, now)
      : null;
  return {
    id: row.platform as PlatformId,
    name: platform?.name ?? row.platform,
    icon: platform?.icon ?? "",
    url: status === "live" ? row.url : downloadUrl,
    status,
    // A live row's text is a note, not an error.
    error: status === "live" ? null : row.last_error,
    note:
      status === "live"
        ? row.last_error
        : status === "submitted"
          ? submissionNote(row.details)
          : null,
    downloadUrl,
    publicationId: row.id,
    stylizedImageId: row.stylized_image_id,
    updatedAt: row.updated_at,
  };
}

export function isDone(status: string): boolean {
  return (DONE_STATUSES as readonly string[]).includes(status);
}

/** Why a platform cannot be published to right now, or null when it can. */
export async function publishBlocker(
  db: DB,
  userId: string,
  platform: Platform,
): Promise<{ status: ListingPlatformStatus; error: string } | null> {
  if (platform.closed) return { status: "failed", error: platform.closed };
  if (!needsConnection(platform)) return null;
  const integration = await findIntegration(db, userId, platform.id);
  if (!integration) return { status: "needs_auth", error: `Connect ${platform.name} first.` };
  if (integration.is_active !== 1) {
    return {
      status: "needs_auth",
      error:
        integration.last_error ??
        `${platform.name} refused the stored connection; please connect again.`,
    };
  }
  return null;
}

export interface PublicationRequest {
  platform: PlatformId;
  /** Null to queue the job; otherwise the row is recorded in this state without a job. */
  blocked: { status: ListingPlatformStatus; error: string } | null;
}

/**
 * Upserts one row per requested platform and enqueues the jobs of those not
 * blocked, in one transaction; then wakes the worker. Answers the rows in the
 * order asked. With `maxQueuedJobs`, a request that would leave the user more
 * publishing jobs queued or running than that is refused whole (429), in the
 * same transaction, and changes nothing. The transaction first takes the
 * user's publishing lock (lockForTransaction), so requests sent at the same
 * time count each other's jobs, on PostgreSQL too.
 */
export async function requestPublications(
  db: DB,
  args: {
    userId: string;
    image: StylizedImageRow;
    requests: PublicationRequest[];
    content: PublishContent;
    origin: string;
    now: Date;
    maxQueuedJobs?: number;
  },
): Promise<ListingPlatformRow[]> {
  const stamp = args.now.toISOString();
  const rows = await db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `publish:${args.userId}`);
    const adding = args.requests.filter((request) => !request.blocked).length;
    if (args.maxQueuedJobs !== undefined && adding > 0) {
      const waiting = await trx
        .selectFrom("jobs")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("user_id", "=", args.userId)
        .where("kind", "=", PUBLISH_JOB)
        .where("status", "in", ["queued", "running"])
        .executeTakeFirstOrThrow();
      if (Number(waiting.count) + adding > args.maxQueuedJobs) {
        throw tooManyRequests(
          30,
          `You can have at most ${args.maxQueuedJobs} publishing jobs waiting at once, and ${Number(waiting.count)} are waiting now. ` +
            "Please wait for them to finish.",
        );
      }
    }
    const saved: ListingPlatformRow[] = [];
    for (const request of args.requests) {
      const status: ListingPlatformStatus = request.blocked?.status ?? "queued";
      const fields = {
        status,
        url: null,
        last_error: request.blocked?.error ?? null,
        title: args.content.title,
        description: args.content.description,
        price_cents: args.content.priceCents,
        extended_price_cents: args.content.extendedPriceCents ?? null,
        exclusive_price_cents: args.content.exclusivePriceCents ?? null,
        tags: JSON.stringify(args.content.tags),
        licensing_enabled: args.content.licensingEnabled ? 1 : 0,
        nft_enabled: args.content.nftEnabled ? 1 : 0,
        updated_at: stamp,
      };
      const row = await trx
        .insertInto("listing_platforms")
        .values({
          id: newId(),
          user_id: args.userId,
          stylized_image_id: args.image.id,
          listing_id: null,
          platform: request.platform,
          revision: 1,
          external_id: null,
          artifact_key: null,
          created_at: stamp,
          ...fields,
        })
        .onConflict((conflict) =>
          conflict.columns(["stylized_image_id", "platform"]).doUpdateSet((eb) => ({
            ...fields,
            revision: eb(eb.ref("listing_platforms.revision"), "+", 1),
          })),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      if (!request.blocked) {
        const payload: PublishJobPayload = {
          publicationId: row.id,
          revision: row.revision,
          origin: args.origin,
        };
        await enqueueJob(trx, {
          kind: PUBLISH_JOB,
          payload,
          now: args.now,
          maxAttempts: 4,
          userId: args.userId,
        });
      }
      saved.push(row);
    }
    return saved;
  });
  if (rows.some((row) => row.status === "queued")) announceJobs();
  return rows;
}

/**
 * Waits (polling the rows) until none of them is queued or the time is up,
 * and answers them as they stand then.
 */
export async function waitForPublications(
  db: DB,
  ids: string[],
  options: { timeoutMs: number; pollMs?: number },
): Promise<ListingPlatformRow[]> {
  const deadline = Date.now() + options.timeoutMs;
  const pollMs = options.pollMs ?? 100;
  for (;;) {
    const rows = ids.length
      ? await db.selectFrom("listing_platforms").selectAll().where("id", "in", ids).execute()
      : [];
    const byId = new Map(rows.map((row) => [row.id, row]));
    const ordered = ids
      .map((id) => byId.get(id))
      .filter((row): row is ListingPlatformRow => row !== undefined);
    if (!ordered.some((row) => row.status === "queued") || Date.now() >= deadline) return ordered;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** Records a connector's outcome, unless a newer request replaced the row meanwhile. Answers whether it did. */
export async function recordPublicationOutcome(
  db: DB,
  store: FileStore,
  args: { publicationId: string; revision: number; outcome: PublishOutcome; now: Date },
): Promise<boolean> {
  const before = await db
    .selectFrom("listing_platforms")
    .select(["artifact_key", "revision"])
    .where("id", "=", args.publicationId)
    .executeTakeFirst();
  const { outcome } = args;
  if (outcome.artifactKey) crashPoint("publication-files-stored");
  const updated = await db
    .updateTable("listing_platforms")
    .set({
      status: outcome.status,
      url: outcome.status === "live" ? (outcome.url ?? null) : null,
      last_error: outcome.error ?? (outcome.status === "live" ? (outcome.note ?? null) : null),
      ...(outcome.artifactKey !== undefined ? { artifact_key: outcome.artifactKey } : {}),
      ...(outcome.listingId !== undefined ? { listing_id: outcome.listingId } : {}),
      ...(outcome.externalId ? { external_id: outcome.externalId } : {}),
      ...(outcome.externalId && outcome.externalShop
        ? { external_shop: outcome.externalShop }
        : {}),
      ...(outcome.details !== undefined ? { details: outcome.details } : {}),
      updated_at: args.now.toISOString(),
    })
    .where("id", "=", args.publicationId)
    .where("revision", "=", args.revision)
    .executeTakeFirst();
  const recorded = Number(updated.numUpdatedRows) === 1;
  if (
    recorded &&
    outcome.artifactKey &&
    before?.artifact_key &&
    before.artifact_key !== outcome.artifactKey
  ) {
    await removeArtifact(store, before.artifact_key);
  }
  if (!recorded && outcome.artifactKey && outcome.artifactKey !== before?.artifact_key) {
    // Superseded while it ran: its files belong to nobody.
    await removeArtifact(store, outcome.artifactKey);
  }
  return recorded;
}

/** Remembers the platform's id of what was made there as soon as it exists. */
export async function recordExternalId(
  db: DB,
  publicationId: string,
  externalId: string,
  externalShop: string | null = null,
): Promise<void> {
  await db
    .updateTable("listing_platforms")
    .set({ external_id: externalId, external_shop: externalShop })
    .where("id", "=", publicationId)
    .execute();
}

/** Notes a failed attempt that will be tried again (the row stays queued). */
export async function notePublicationRetry(
  db: DB,
  args: { publicationId: string; revision: number; error: string; now: Date },
) {
  await db
    .updateTable("listing_platforms")
    .set({ last_error: args.error.slice(0, 500), updated_at: args.now.toISOString() })
    .where("id", "=", args.publicationId)
    .where("revision", "=", args.revision)
    .where("status", "=", "queued")
    .execute();
}

export async function markPublicationFailed(
  db: DB,
  args: { publicationId: string; revision: number; error: string; now: Date },
) {
  await db
    .updateTable("listing_platforms")
    .set({
      status: "failed",
      url: null,
      last_error: args.error.slice(0, 500),
      updated_at: args.now.toISOString(),
    })
    .where("id", "=", args.publicationId)
    .where("revision", "=", args.revision)
    .execute();
}

export function publicationsOfImage(
  db: DB,
  userId: string,
  stylizedImageId: string,
): Promise<ShownPublication[]> {
  return db
    .selectFrom("listing_platforms")
    .selectAll()
    .where("user_id", "=", userId)
    .where("stylized_image_id", "=", stylizedImageId)
    .execute()
    .then((rows) => currentPublications(db, sortByRegistry(rows)));
}

export function publicationsOfUser(db: DB, userId: string): Promise<ListingPlatformRow[]> {
  return db
    .selectFrom("listing_platforms")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("updated_at", "desc")
    .execute();
}

export function findPublication(
  db: DB,
  userId: string,
  publicationId: string,
): Promise<ListingPlatformRow | undefined> {
  return db
    .selectFrom("listing_platforms")
    .selectAll()
    .where("id", "=", publicationId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

function sortByRegistry(rows: ListingPlatformRow[]): ListingPlatformRow[] {
  const order = (id: string) => {
    const index = (PLATFORM_IDS as readonly string[]).indexOf(id);
    return index < 0 ? PLATFORM_IDS.length : index;
  };
  return [...rows].sort((a, b) => order(a.platform) - order(b.platform));
}

/**
 * For the studio's delete (images.server.ts `beforeStylizedDelete`): removes
 * the kits, packages and model release of a stylized image. Its rows go with the image
 * (foreign key cascade).
 */
export async function removePublishingArtifacts(
  db: DB,
  store: FileStore,
  stylizedImageId: string,
): Promise<void> {
  const rows = await db
    .selectFrom("listing_platforms")
    .select("artifact_key")
    .where("stylized_image_id", "=", stylizedImageId)
    .execute();
  for (const row of rows) await removeArtifact(store, row.artifact_key);
  // Its model release's PDF (the row goes with the image too).
  const release = await db
    .selectFrom("model_releases")
    .select("file_key")
    .where("stylized_image_id", "=", stylizedImageId)
    .executeTakeFirst();
  if (release) await store.remove(release.file_key);
}

/** The content a row was last asked to publish. */
export function publicationContent(row: ListingPlatformRow): PublishContent {
  return {
    title: row.title,
    description: row.description,
    priceCents: row.price_cents,
    extendedPriceCents: row.extended_price_cents,
    exclusivePriceCents: row.exclusive_price_cents,
    tags: parseTags(row.tags),
    licensingEnabled: row.licensing_enabled === 1,
    nftEnabled: row.nft_enabled === 1,
  };
}
