import { PRICE_RANGE_ERROR } from "~/lib/money";
/**
 * Publishing copy and numbers shared by the screens and the server.
 */

/**
 * The state of one image on one platform. `live` only when the listing is
 * really reachable at its URL; everything else says honestly where it stands.
 * `submitted`: the file reached a stock agency that reviews it before it sells
 * (Adobe Stock); the product cannot see the review, so it never says `live`.
 * `withdrawn` is shown (never stored) for an own-marketplace listing the
 * creator took down after it went live.
 */
export const PUBLICATION_STATUSES = [
  "queued",
  "live",
  "needs_auth",
  "ready_to_mint",
  "export_ready",
  "submitted",
  "failed",
  "withdrawn",
] as const;
export type PublicationStatus = (typeof PUBLICATION_STATUSES)[number];

/** States in which the product did what it can do on the platform. */
export const DONE_STATUSES: readonly PublicationStatus[] = [
  "live",
  "ready_to_mint",
  "export_ready",
  "submitted",
];

export const STATUS_LABELS: Record<PublicationStatus, string> = {
  queued: "Queued",
  live: "Live",
  needs_auth: "Needs connection",
  ready_to_mint: "Ready to mint",
  export_ready: "Export ready",
  submitted: "Submitted for review",
  failed: "Failed",
  withdrawn: "Withdrawn",
};

/** Estimated reach is 150k times the number of platforms. */
export const ESTIMATED_REACH_PER_PLATFORM = 150_000;
/**
 * The earnings estimate assumes one sale per 10,000 views at the listing's
 * price. It is an assumption, and the screens label it as an estimate.
 */
export const ESTIMATED_SALES_PER_VIEW = 1 / 10_000;

export function estimatedViews(platforms: number): number {
  return ESTIMATED_REACH_PER_PLATFORM * platforms;
}

/** Dollars, rounded to cents. */
export function estimatedEarnings(views: number, priceDollars: number): number {
  return Math.round(views * ESTIMATED_SALES_PER_VIEW * priceDollars * 100) / 100;
}

/** OAuth popup: its size and how often it is checked for being closed. */
export const OAUTH_POPUP_WIDTH = 600;
export const OAUTH_POPUP_HEIGHT = 700;
export const OAUTH_POPUP_CHECK_MS = 1000;
/** The callback page tells the opener on this channel that a connection finished. */
export const OAUTH_CHANNEL = "selfie-studio-oauth";
/** An OAuth state works once, for 10 minutes. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

/** The license terms page that mint kits link to (the standard commercial license). */
export const LICENSE_PATH = "/license";

/** The result view checks queued platforms again this often (with JavaScript). */
export const PUBLISH_POLL_INTERVAL_MS = 2000;

/** How long launch and post wait for their jobs before answering with the states so far. */
export const PUBLISH_WAIT_MS = 8000;

/** The publishing screens' fixed messages (toasts and validation). */
export const COPY = {
  titleRequired: { title: "Title required", description: "Please add a title for your content" },
  /** The title a refused title's toast carries when the title is there but wrong (too long). */
  titleInvalid: "Check the title",
  selectPlatforms: {
    title: "Select platforms",
    description: "Choose at least one platform to launch on",
  },
  launched: { title: "Marketing campaign launched!" },
  launchFailed: { title: "Launch failed" },
  selectOnePlatform: { title: "Error", description: "Please select at least one platform" },
  invalidPrice: PRICE_RANGE_ERROR,
  postingComplete: { title: "Marketplace Posting Complete" },
  postFailed: { title: "Error", description: "Failed to create listings." },
  connectionComplete: { title: "Connection Complete" },
  connectionFailed: { title: "Connection Failed" },
  integrationCreated: { title: "Success", description: "Integration created successfully." },
  integrationFailed: { title: "Error", description: "Failed to create integration." },
  loginRequired: {
    title: "Please log in",
    description: "You need to be logged in to access integrations.",
  },
} as const;

export function connectFailedText(platformName: string): string {
  return `Failed to connect to ${platformName}`;
}

/** 'Marketplace Posting Complete' description: the successes out of the total. */
export function postingCompleteText(successes: number, total: number): string {
  return `Successfully posted to ${successes} of ${total} platform${total === 1 ? "" : "s"}.`;
}

export function formatCount(value: number): string {
  return new Intl.NumberFormat("en-US").format(value);
}

/** An amount in whole units with the settlement currency's symbol ("$1,234.50"; usd unless told). */
export function formatDollars(value: number, currency = "usd"): string {
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: currency.toUpperCase(),
  }).format(value);
}

/** The toast of a refused title: "Title required" when it is missing, else what is wrong with it (say, too long). */
export function titleRefusal(message: string | undefined): {
  kind: "error";
  title: string;
  description: string;
} {
  if (!message || message === COPY.titleRequired.description)
    return { kind: "error", ...COPY.titleRequired };
  return { kind: "error", title: COPY.titleInvalid, description: message };
}
