import type { StylizedImageRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { Platform } from "~/features/publishing/platforms";
import { findModelRelease } from "~/features/publishing/releases/model-releases.server";
import { stockSizeRefusal } from "~/features/publishing/connectors/stock-submission.server";

/**
 * Whether a styled image may go to a stock agency (Adobe Stock): a signed
 * model release of the person it shows exists, and the engine really made at
 * least 4 megapixels. Checked when the creator asks (the listing is recorded
 * failed with the sentence, and no job runs) and again by the job.
 */

/** The sentence when an image has no model release yet. */
export function releaseRequired(platformName: string): string {
  return (
    `${platformName} needs a signed model release for this image, because it shows a real person. ` +
    `Sign one for yourself or upload the signed release of the person shown (Model release, under the listing), then submit again.`
  );
}

/** The sentence when the image's release still waits for the photographer's signature. */
export function photographerSignatureRequired(platformName: string): string {
  return (
    `${platformName} needs the photographer's signature on this image's model release too: it names someone else as the photographer. ` +
    `Have them sign the PDF as photographer, then upload the signed copy (Model release, under the listing) and submit again.`
  );
}

/** The pixels the engine really made: recorded since they were; else the file's size when nothing enlarged it; else unknown. */
export function nativeSize(
  image: Pick<
    StylizedImageRow,
    "native_width" | "native_height" | "width" | "height" | "upscaled_by"
  >,
): { width: number; height: number } | null {
  if (image.native_width && image.native_height)
    return { width: image.native_width, height: image.native_height };
  if (!image.upscaled_by && image.width && image.height)
    return { width: image.width, height: image.height };
  return null;
}

/** Why this image cannot be submitted to this agency now, or null when it can. */
export async function stockSubmissionBlocker(
  db: DB,
  userId: string,
  image: StylizedImageRow,
  platform: Platform,
): Promise<string | null> {
  if (platform.capability !== "sftpSubmission") return null;
  const release = await findModelRelease(db, userId, image.id);
  if (!release) return releaseRequired(platform.name);
  if (release.awaiting_photographer === 1) return photographerSignatureRequired(platform.name);
  return stockSizeRefusal(nativeSize(image), platform.name);
}
