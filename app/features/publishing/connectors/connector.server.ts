import type { FileStore } from "~/infra/file-store.server";
import type { FetchLike } from "~/infra/shopify/shopify-errors.server";
import type { Platform } from "~/features/publishing/platforms";
import type { PublicationStatus } from "~/features/publishing/types";

/** The own marketplace's listing of an image, as the publishing side knows it. */
export interface MarketplaceListing {
  listingId: string;
  /** Where the listing is reachable on /marketplace (absolute). */
  url: string;
  /** Its public watermarked preview (a /media path or the public bucket's absolute URL). */
  previewUrl: string;
}

/**
 * One interface for every platform connector. A connector gets everything it
 * needs in the request (the content, the image's file, the creator, the opened
 * credential) and answers only what is true: `live` with a URL the platform
 * confirmed, or an honest other state. It throws for failures the job worker
 * should handle: errors with `retryable: true` are tried again with backoff.
 */

export interface PublishContent {
  title: string;
  description: string;
  priceCents: number;
  /** The own marketplace's Extended and Exclusive licence prices (decision 101); null when not offered. Other platforms sell at priceCents. */
  extendedPriceCents?: number | null;
  exclusivePriceCents?: number | null;
  tags: string[];
  licensingEnabled: boolean;
  nftEnabled: boolean;
}

export interface PublishRequest {
  /** The listing_platforms row this attempt works for. */
  publicationId: string;
  platform: Platform;
  content: PublishContent;
  image: {
    id: string;
    style: string;
    /** The file key of the image to publish (the clean, full-resolution file the marketplace sells). */
    fileKey: string;
    /** The styled image's own file (JPEG or PNG), for platforms that take no WebP. */
    styledFileKey: string;
    /** The pixels the engine really made for the styled file; null when unknown (it was enlarged without saying how much). */
    native?: { width: number; height: number } | null;
  };
  creator: { id: string; name: string };
  /** The platform's settlement currency (CURRENCY, lowercase ISO code), which `content.priceCents` is in. */
  currency: string;
  /** Absolute origin of the app, for URLs that leave it (e.g. https://selfie.example). */
  origin: string;
  /** The opened credential of an active connection, when the platform needs one. */
  credential: {
    secret: string;
    walletAddress: string | null;
    shopDomain: string | null;
    /** An SFTP connection's username and the host key fingerprint recorded when it was saved. */
    accountName?: string | null;
    hostKey?: string | null;
  } | null;
  /** What the platform called our thing last time (Shopify's product GID), to update rather than duplicate. */
  externalId: string | null;
  /** The own marketplace's listing URL of this image, when it is listed there. */
  marketplaceUrl: string | null;
  /**
   * The image's active listing on the own marketplace, when it has one: what a
   * Shopify buyer is delivered, and its public watermarked preview (the only
   * picture of it that leaves for another platform's public pages).
   */
  marketplaceListing?: MarketplaceListing | null;
}

export interface PublishDeps {
  store: FileStore;
  now: () => Date;
  signal: AbortSignal;
  fetch?: FetchLike;
  /** Records the platform's id of a new thing as soon as it exists (before later steps may fail). */
  onExternalId?: (externalId: string) => Promise<void>;
}

export interface PublishOutcome {
  /** A stored state (`withdrawn` is only ever shown, never recorded). */
  status: Exclude<PublicationStatus, "withdrawn">;
  /** Where the listing is reachable; only with `live`. */
  url?: string | null;
  error?: string | null;
  /** With `live`: something the creator should know (e.g. the storefront is password-protected). */
  note?: string | null;
  /** A kit or package the creator downloads (a zip under kits/). */
  artifactKey?: string | null;
  /** The own marketplace's listing. */
  listingId?: string | null;
  externalId?: string | null;
  /** The store the external id belongs to (Shopify's <name>.myshopify.com). */
  externalShop?: string | null;
  /** JSON of what was sent (a submitted file's name, size and how it was enlarged). */
  details?: string | null;
}

export interface Connector {
  publish(request: PublishRequest, deps: PublishDeps): Promise<PublishOutcome>;
}

/** An error that will not pass by trying again (the worker fails the job at once). */
export class PermanentPublishError extends Error {
  readonly retryable = false;
  constructor(message: string) {
    super(message);
    this.name = "PermanentPublishError";
  }
}
