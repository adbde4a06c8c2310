import type { PlatformId } from "~/features/publishing/platforms";
import type { PublicationStatus } from "~/features/publishing/types";

/** One platform's state for an image (an entry of the launch answer's `platforms[]`, plus what the screens need). */
export interface PublicationView {
  id: PlatformId;
  name: string;
  icon: string;
  url: string | null;
  status: PublicationStatus;
  error: string | null;
  downloadUrl: string | null;
  authUrl: string | null;
  /** What was sent, in one sentence (a submitted file's size and how it was enlarged), when known. */
  note?: string | null;
  /** The stylized image (for its model release page). */
  stylizedImageId?: string;
  /** A stock agency's row: the image's model release PDF (owner only), or null while it has none. */
  modelReleaseUrl?: string | null;
}

export interface LaunchResultData {
  imageId: string;
  platformsLaunched: number;
  viewsGenerated: number;
  estimatedEarnings: number;
  price: string;
  platforms: PublicationView[];
}
