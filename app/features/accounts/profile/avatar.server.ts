import fsp from "node:fs/promises";
import sharp from "sharp";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { isValidFileKey, newFileKey } from "~/infra/file-store.server";
import { publicMediaUrl } from "~/infra/signed-urls.server";

/**
 * Profile photos: an upload decoded from its bytes alone (its name and
 * declared type are never trusted), turned upright, cropped to a square on
 * its most interesting part (sharp's attention strategy), scaled to
 * AVATAR_SIZE and re-encoded as JPEG without any metadata (EXIF with GPS, XMP,
 * IPTC, ICC). Stored under avatars/, a public area: the photo is shown wherever
 * the person's name is (the nav, the admin portal, a storefront).
 */

export const AVATAR_SIZE = 256;
/** Decoding refuses more pixels than this (decompression bombs), as the studio's uploads do. */
export const AVATAR_PIXEL_LIMIT = 50_000_000;
/** Raster formats accepted, as for the studio's uploads; SVG, PDF and raw camera files are refused. */
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "heif", "tiff"]);

export class NotAnAvatarImageError extends Error {
  constructor(cause?: unknown) {
    super("The file is not an image we can read", { cause });
    this.name = "NotAnAvatarImageError";
  }
}

const MEDIA_PREFIX = "/media/";

/**
 * The stored key of a profile photo URL this site made, or null (none, or a
 * URL from elsewhere): `/media/avatars/...` on the volume, or the object's
 * public address (FILES_PUBLIC_BASE_URL/avatars/...) with object storage.
 */
export function avatarKeyOf(profileImageUrl: string | null): string | null {
  if (!profileImageUrl) return null;
  const at = profileImageUrl.lastIndexOf("/avatars/");
  if (at === -1) return null;
  const key = profileImageUrl.slice(at + 1);
  if (!isValidFileKey(key)) return null;
  return profileImageUrl === `${MEDIA_PREFIX}${key}` || profileImageUrl === publicMediaUrl(key)
    ? key
    : null;
}

/**
 * Makes the square photo from an uploaded file and stores it as the user's
 * profile photo; the previous one this site stored is removed. Answers the new
 * URL. Throws NotAnAvatarImageError for bytes that are not a decodable raster
 * image. The source file is consumed (removed) either way.
 */
export async function storeAvatar(
  db: DB,
  store: FileStore,
  args: { userId: string; sourcePath: string; now: Date },
): Promise<string> {
  const encodedPath = await store.scratchPath();
  try {
    const input = () =>
      sharp(args.sourcePath, { failOn: "truncated", limitInputPixels: AVATAR_PIXEL_LIMIT });
    let format: string | undefined;
    try {
      format = (await input().metadata()).format;
    } catch (error) {
      throw new NotAnAvatarImageError(error);
    }
    if (!format || !ACCEPTED_FORMATS.has(format))
      throw new NotAnAvatarImageError(`format ${format}`);
    try {
      await input()
        .rotate()
        .resize({
          width: AVATAR_SIZE,
          height: AVATAR_SIZE,
          fit: "cover",
          position: sharp.strategy.attention,
        })
        .flatten({ background: "#ffffff" })
        .jpeg({ quality: 85 })
        .toFile(encodedPath);
    } catch (error) {
      // Decoding happens here: truncated and corrupt files fail now.
      throw new NotAnAvatarImageError(error);
    }

    const key = newFileKey("avatars", "jpg");
    const url = publicMediaUrl(key);
    await store.putFile(key, encodedPath);
    let previous: string | null;
    try {
      previous = await db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom("users")
          .select("profile_image_url")
          .where("id", "=", args.userId)
          .executeTakeFirstOrThrow();
        await trx
          .updateTable("users")
          .set({ profile_image_url: url, updated_at: args.now.toISOString() })
          .where("id", "=", args.userId)
          .execute();
        return before.profile_image_url;
      });
    } catch (error) {
      await store.remove(key);
      throw error;
    }
    await store.remove(avatarKeyOf(previous));
    return url;
  } finally {
    await fsp.rm(args.sourcePath, { force: true });
    await fsp.rm(encodedPath, { force: true });
  }
}
