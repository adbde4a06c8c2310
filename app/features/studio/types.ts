import type { PlatformOption } from "~/features/publishing/platforms";
import type { PublicUser } from "~/lib/accounts";
import type { PipelineStep } from "~/features/studio/workspace/dashboard-url";
import type {
  ImageFormat,
  OptimizationSettings,
  PresetId,
  Resolution,
} from "~/features/studio/optimize/optimization";

/** What the studio's API and screens answer. */

export type StylizedStatus = "pending" | "processing" | "completed" | "failed";

export type ImageLikenessJson = "self" | "other" | "none" | "unverified";

export interface ImageJson {
  id: string;
  userId: string;
  /** Signed, expiring. */
  originalUrl: string;
  width: number;
  height: number;
  bytes: number;
  mimeType: string;
  createdAt: string;
  /**
   * The upload compared with the creator's verified face: "self" (the same
   * person), "other" (a face that is not theirs), "none" (no face found), or
   * "unverified" (not compared: no verified face when it was uploaded).
   */
  likeness: ImageLikenessJson;
  /** On the dashboard: when ORIGINALS_RETENTION_DAYS removes this upload (null: it is kept). */
  removesAt?: string | null;
}

export interface StylizedImageJson {
  id: string;
  imageId: string;
  style: string;
  status: StylizedStatus;
  /** The styled image (signed, expiring); null until completed. Same as stylizedUrl. */
  styledUrl: string | null;
  stylizedUrl: string | null;
  originalUrl: string;
  optimizedUrl: string | null;
  /** Format and quality of the optimized version; null until optimized. */
  format: ImageFormat | null;
  quality: number | null;
  resolution: Resolution | null;
  watermark: boolean | null;
  socialOptimized: boolean | null;
  /** Pixel size and bytes of the optimized file when there is one, else of the styled file. */
  width: number | null;
  height: number | null;
  bytes: number | null;
  /**
   * How that file was enlarged, if it was: "lanczos3" (sharp's Lanczos-3
   * resize) or a fal.ai upscaler's id such as "fal-ai/esrgan"; null when not.
   */
  upscaledBy?: string | null;
  /** Dollars as a string; "25" when no price was set. */
  price: string;
  licensingEnabled: boolean;
  nftEnabled: boolean;
  createdAt: string;
  completedAt: string | null;
  /** A sentence for the creator when failed. */
  error: string | null;
  /** The engine that makes (or made) it. */
  provider: "local" | "fal";
  /** The seed the style was made with (a re-roll makes the same photo and style with a new one); null on older styles. */
  seed: number | null;
}

export type ImageWithStylized = ImageJson & { stylized: StylizedImageJson[] };

/** Whether a stylized image is still on its way: any status but completed or failed. */
export function isInProgress(image: Pick<StylizedImageJson, "status">): boolean {
  return image.status !== "completed" && image.status !== "failed";
}

/** The creator's numbers (GET /api/token-stats, the dashboard's stat cards). */

/** What the dashboard shows in its pipeline, from its URL (see dashboard-url.ts). */
export interface DashboardView {
  step: PipelineStep;
  /** The original held in the pipeline (upload -> style). */
  image: ImageJson | null;
  /** The stylized image held (style -> optimize -> market). */
  styled: StylizedImageJson | null;
  /** A style being made for a page without JavaScript. */
  pending: StylizedImageJson | null;
  panel: "launch" | "sell" | null;
  /** The publishing platforms offered in the market step's panels (empty elsewhere). */
  platforms: PlatformOption[];
  /** The optimization panel's starting values. */
  optimization: OptimizationSettings;
  preset: PresetId | null;
  /** The URL to reload while something is in progress (used by browsers without JavaScript only). */
  refreshUrl: string | null;
}

export interface MarketState {
  /** Dollars, e.g. "75". */
  price: string;
  /** The live listing's Extended and Exclusive prices (dollars), so a form that updates it keeps them. */
  extendedPrice?: string | null;
  exclusivePrice?: string | null;
  listed: boolean;
  /** The live listing's own page (absolute), the link to share; null when not listed. */
  url?: string | null;
}

export interface DashboardData {
  user: PublicUser;
  stats: CreatorStats;
  /** The originals, newest first. */
  images: ImageJson[];
  /** The stylized images, newest first. */
  stylized: StylizedImageJson[];
  /**
   * Per completed stylized image: the price to show and offer (the live
   * listing's, else the image's own, else its style's suggested price) and
   * whether it is listed on the marketplace now.
   */
  market?: Record<string, MarketState>;
  view: DashboardView;
  /**
   * Whether the creator consents to face processing (to the text shown now; absent is taken as
   * given), that text, and whether they agreed to an earlier one (asked again).
   */
  faceConsent?: { given: boolean; paragraphs: string[]; outdated?: boolean };
  /** The engine that styles on this server now, for how long a style is said to take. */
  styleEngine?: "local" | "fal";
}

/** A creator's numbers: the dashboard's stat cards and GET /api/token-stats. */
export interface CreatorStats {
  totalImages: number;
  totalStylized: number;
  totalListed: number;
  totalSales: number;
  /** Dollars: the creator's share of every sale. */
  totalEarnings: number;
  totalViews: number;
}
