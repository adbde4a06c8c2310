import type { PlatformId } from "~/lib/platforms";
import type { PublicationStatus } from "~/lib/publishing";

/** A platform as the publishing forms offer it. */
export interface PlatformOption {
  id: PlatformId;
  name: string;
  /** Whether the creator can publish there now (always for the own marketplace). */
  connected: boolean;
  /** Set when the platform no longer takes listings. */
  closed?: boolean;
}

/** One platform's state for an image (api.md's launch `platforms[]`, plus what the screens need). */
export interface PublicationView {
  id: PlatformId;
  name: string;
  icon: string;
  url: string | null;
  status: PublicationStatus;
  error: string | null;
  downloadUrl: string | null;
  authUrl: string | null;
}

export interface LaunchResultData {
  imageId: string;
  platformsLaunched: number;
  viewsGenerated: number;
  estimatedEarnings: number;
  price: string;
  platforms: PublicationView[];
}
