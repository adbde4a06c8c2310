import type { ImageLikeness, StylizedImageRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { conflict } from "~/infra/errors.server";

/**
 * Only faces that agreed are sold (decision record 085). One rule for every
 * way an image goes on sale, kept in the market (publishing uses the market,
 * not back): publishing's `publishToPlatforms` asks it before any platform
 * (the list-for-sale dialog, the launch form and their /api routes), the
 * publish job again before it sends, and `listOnMarketplace` (the /listings
 * form, and the job's own-marketplace listing).
 *
 * The original's likeness (decision record 083) decides:
 * - `self` (the creator's verified face) and `none` (no face) are sold;
 * - `other` (a face that is not the creator's) only with a model release on
 *   file for that stylized image (signed here or uploaded);
 * - `unverified` (never compared: the creator has no verified face, or the
 *   photo waits for its comparison after a verification) is not sold until
 *   the creator verifies their face and the photo is compared with it, unless
 *   a release is on file: a release is the consent of the person shown,
 *   whoever that is.
 */

/** Where the creator verifies their face. */
export const VERIFY_FACE_PATH = "/settings/privacy";

/** The page of an image's model release. */
export function releasePath(stylizedImageId: string): string {
  return `/studio/release?image=${encodeURIComponent(stylizedImageId)}`;
}

/** The refusal of an image that shows someone else's face and has no release. */
export function otherFaceNeedsRelease(stylizedImageId: string): string {
  return (
    "This image shows a face that is not yours, and only faces that agreed are sold: " +
    `add the model release signed by the person shown (Model release: ${releasePath(stylizedImageId)}), then list it again.`
  );
}

/** The refusal of an image never compared with the creator's face. */
export const FACE_NOT_VERIFIED =
  "Only faces that agreed are sold, and this photo was not compared with your face: " +
  `verify your face in Settings, Privacy (${VERIFY_FACE_PATH}); your photos are then compared with it within a few minutes, and you can list this one again. ` +
  "A photo whose original is no longer kept must be uploaded again.";

/** What the rule says of one image: sold, or why not. */
export type SaleConsent =
  { sold: true } | { sold: false; reason: "other" | "unverified"; message: string };

/** The rule itself, on values already read (the admin's flagged listings use it too). */
export function saleConsent(args: {
  stylizedImageId: string;
  likeness: ImageLikeness | null;
  hasRelease: boolean;
}): SaleConsent {
  if (args.likeness === "self" || args.likeness === "none" || args.hasRelease)
    return { sold: true };
  if (args.likeness === "other")
    return { sold: false, reason: "other", message: otherFaceNeedsRelease(args.stylizedImageId) };
  return { sold: false, reason: "unverified", message: FACE_NOT_VERIFIED };
}

/** The likeness of a stylized image's original (null: unverified), and whether a release is on file. */
async function consentFacts(
  db: DB,
  image: Pick<StylizedImageRow, "id" | "image_id" | "user_id">,
): Promise<{ likeness: ImageLikeness | null; hasRelease: boolean }> {
  const original = await db
    .selectFrom("images")
    .select("likeness")
    .where("id", "=", image.image_id)
    .executeTakeFirst();
  const release = await db
    .selectFrom("model_releases")
    .select("id")
    .where("user_id", "=", image.user_id)
    .where("stylized_image_id", "=", image.id)
    .executeTakeFirst();
  return { likeness: original?.likeness ?? null, hasRelease: release !== undefined };
}

/** Whether this stylized image may be sold anywhere now. */
export async function saleConsentOf(
  db: DB,
  image: Pick<StylizedImageRow, "id" | "image_id" | "user_id">,
): Promise<SaleConsent> {
  return saleConsent({ stylizedImageId: image.id, ...(await consentFacts(db, image)) });
}

/** Refuses (409, with the sentence) an image whose face did not agree. */
export async function assertSaleConsent(
  db: DB,
  image: Pick<StylizedImageRow, "id" | "image_id" | "user_id">,
): Promise<void> {
  const consent = await saleConsentOf(db, image);
  if (!consent.sold) throw conflict(consent.message);
}

/** An active listing that went up before the rule (or whose likeness was reset since) and would be refused now. */
export interface ListingAwaitingConsent {
  listingId: string;
  title: string;
  creatorId: string;
  stylizedImageId: string | null;
  reason: "other" | "unverified";
  createdAt: string;
}

/**
 * The active marketplace listings the rule would refuse today: listed before it
 * existed by a creator who had not verified their face, or of another person's
 * face without a release. They stay up; the admin sees them (newest first).
 */
export async function listingsAwaitingConsent(
  db: DB,
  limit = 200,
): Promise<{ count: number; listings: ListingAwaitingConsent[] }> {
  const base = db
    .selectFrom("listings")
    .innerJoin("stylized_images", "stylized_images.id", "listings.stylized_image_id")
    .innerJoin("images", "images.id", "stylized_images.image_id")
    .leftJoin("model_releases", (join) =>
      join
        .onRef("model_releases.stylized_image_id", "=", "listings.stylized_image_id")
        .onRef("model_releases.user_id", "=", "listings.user_id"),
    )
    .where("listings.status", "=", "active")
    .where("model_releases.id", "is", null)
    .where((eb) => eb.or([eb("images.likeness", "is", null), eb("images.likeness", "=", "other")]));
  const counted = await base
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  const rows = await base
    .select([
      "listings.id",
      "listings.title",
      "listings.user_id",
      "listings.stylized_image_id",
      "listings.created_at",
      "images.likeness",
    ])
    .orderBy("listings.created_at", "desc")
    .orderBy("listings.id", "desc")
    .limit(limit)
    .execute();
  return {
    count: Number(counted.count),
    listings: rows.map((row) => ({
      listingId: row.id,
      title: row.title,
      creatorId: row.user_id,
      stylizedImageId: row.stylized_image_id,
      reason: row.likeness === "other" ? "other" : "unverified",
      createdAt: row.created_at,
    })),
  };
}
