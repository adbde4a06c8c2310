import type { UserRow } from "#db/schema";
import type { CallContext } from "~/infra/call-context.server";
import { badRequest, conflict, notFound } from "~/infra/errors.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import { centsToPriceString } from "~/lib/money";
import { ownStylizedImage } from "~/features/market/public.server";
import { getPlatform } from "~/features/publishing/platforms";
import type { PlatformId } from "~/features/publishing/platforms";
import type { PublishContent } from "~/features/publishing/connectors/connector.server";
import { estimatedEarnings, estimatedViews, PUBLISH_WAIT_MS } from "~/features/publishing/types";
import {
  findModelRelease,
  modelReleaseJson,
} from "~/features/publishing/releases/model-releases.server";
import { stockSubmissionBlocker } from "~/features/publishing/publications/stock-readiness.server";
import {
  assertSaleConsent,
  SOLD_EXCLUSIVELY,
  soldExclusively,
} from "~/features/market/public.server";
import { authUrlFor } from "~/features/publishing/integrations/oauth-connections.server";
import type {
  PublicationJson,
  ShownPublication,
} from "~/features/publishing/publications/publications.server";
import {
  isDone,
  publicationJson,
  publishBlocker,
  requestPublications,
  waitForPublications,
} from "~/features/publishing/publications/publications.server";

/** What publishing needs of the call: the database, the settings, the origin for links, and the time. */
export type PublishingDeps = Pick<CallContext, "db" | "config" | "origin" | "now">;

/** The creator's own stylized image, or a 404. */
export async function ownImage(deps: Pick<CallContext, "db">, user: UserRow, imageId: string) {
  const image = await ownStylizedImage(deps.db, user.id, imageId);
  if (!image) throw notFound("Stylized image not found");
  return image;
}

/** The creator's own stylized image once it is complete (400 before). */
export async function completedImage(
  deps: Pick<CallContext, "db">,
  user: UserRow,
  imageId: string,
) {
  const image = await ownImage(deps, user, imageId);
  if (image.status !== "completed" || !image.file_key) {
    throw badRequest("Only a completed stylized image can be published", {
      imageId: ["This image is not ready yet"],
    });
  }
  return image;
}

export interface PlatformResult extends PublicationJson {
  authUrl: string | null;
  /** A stock agency's row (Adobe Stock): the image's model release PDF (owner only), or null while it has none. */
  modelReleaseUrl?: string | null;
}

/** Each publication as the API shows it, with a link to reconnect where the platform needs authorizing again. */
export async function platformResults(
  deps: PublishingDeps,
  user: UserRow,
  rows: ShownPublication[],
): Promise<PlatformResult[]> {
  const results: PlatformResult[] = [];
  for (const row of rows) {
    const json = publicationJson(row, deps.origin);
    const authUrl =
      json.status === "needs_auth"
        ? await authUrlFor(deps.db, {
            config: deps.config,
            userId: user.id,
            platform: getPlatform(json.id),
            origin: deps.origin,
            now: deps.now,
          })
        : null;
    const stock = getPlatform(json.id).capability === "sftpSubmission";
    const release = stock
      ? await findModelRelease(deps.db, user.id, row.stylized_image_id)
      : undefined;
    results.push({
      ...json,
      authUrl,
      ...(stock ? { modelReleaseUrl: release ? modelReleaseJson(release).downloadUrl : null } : {}),
    });
  }
  return results;
}

/** A launch's counts and estimates (the launch answer and the launch result page show the same). */
export function launchFigures(platforms: PlatformResult[], priceCents: number) {
  const platformsLaunched = platforms.filter((platform) => isDone(platform.status)).length;
  const viewsGenerated = estimatedViews(platformsLaunched);
  return {
    platformsLaunched,
    viewsGenerated,
    estimatedEarnings: estimatedEarnings(viewsGenerated, priceCents / 100),
    price: centsToPriceString(priceCents),
  };
}

/** Publishes to each platform (jobs), waits a moment for them, and answers each platform's state. */
export async function publishToPlatforms(
  deps: PublishingDeps,
  user: UserRow,
  args: {
    imageId: string;
    platforms: PlatformId[];
    content: PublishContent;
  },
): Promise<PlatformResult[]> {
  const image = await completedImage(deps, user, args.imageId);
  // Sold with an Exclusive licence: the creator sells it to no one else, anywhere (decision 101).
  if (await soldExclusively(deps.db, image.id)) throw conflict(SOLD_EXCLUSIVELY);
  // Only faces that agreed are sold, on any platform (decision record 085): 409 with the sentence.
  await assertSaleConsent(deps.db, image);
  const requests = [];
  for (const id of args.platforms) {
    const platform = getPlatform(id);
    let blocked = await publishBlocker(deps.db, user.id, platform);
    // A stock agency's file needs a model release and 4 MP the engine really made: refused here with the sentence.
    const refusal = blocked
      ? null
      : await stockSubmissionBlocker(deps.db, user.id, image, platform);
    if (refusal) blocked = { status: "failed", error: refusal };
    requests.push({ platform: id, blocked });
  }
  // Publishing writes files (listing copies, kits, packages): refused while the volume is nearly full.
  if (requests.some((request) => !request.blocked)) await ensureFreeSpace(deps.config);
  const rows = await requestPublications(deps.db, {
    userId: user.id,
    image,
    requests,
    content: args.content,
    origin: deps.origin,
    now: deps.now,
    maxQueuedJobs: deps.config.PUBLISH_JOBS_PER_CREATOR,
  });
  const settled = await waitForPublications(
    deps.db,
    rows.map((row) => row.id),
    { timeoutMs: PUBLISH_WAIT_MS },
  );
  return platformResults(deps, user, settled);
}
