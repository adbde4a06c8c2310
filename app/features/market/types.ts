/**
 * The selling side's constants and copy (marketplace, checkout and downloads),
 * shared by screens and server.
 */

/** The product's own marketplace as a publishing platform (its id in the API). */
export const MARKETPLACE_PLATFORM_ID = "marketplace";

export const MARKETPLACE_PAGE_SIZE = 24;
export const MARKETPLACE_MAX_LIMIT = 100;
/** Longest search text accepted (characters). */
export const MARKETPLACE_MAX_QUERY = 100;

/** A download link works for 7 days and for this many downloads. */
export const DOWNLOAD_GRANT_DAYS = 7;
export const DOWNLOAD_GRANT_MAX_DOWNLOADS = 5;

/** Payment monitor polling: every 5 seconds. */
export const PAYMENT_POLL_INTERVAL_MS = 5000;

/** Stripe refuses card charges under 50 cents (USD). */
export const STRIPE_MINIMUM_CENTS = 50;

export const MISSING_INFORMATION = {
  title: "Missing Information",
  description: "Please fill in your name and email address.",
} as const;
/** The checkout's summary when name and email are there but one is wrong (say, an email that is not one). */
export const CHECK_YOUR_DETAILS = { title: "Check Your Details" } as const;
export const INVALID_EMAIL = "Please enter a valid email address.";

/** The summary of a refused checkout form: "Missing Information" when name or email is missing, else what is wrong. */
export function checkoutRefusal(errors: { name?: string[] | null; email?: string[] | null }): {
  title: string;
  description: string;
} {
  const messages = [...(errors.name ?? []), ...(errors.email ?? [])];
  if (messages.length === 0 || messages.includes(MISSING_INFORMATION.description))
    return MISSING_INFORMATION;
  return { title: CHECK_YOUR_DETAILS.title, description: messages[0] };
}

export const CHECKOUT_FAILED = {
  title: "Checkout Failed",
  description: "Something went wrong creating your checkout session. Please try again.",
} as const;
export const CHECKOUT_ERROR = {
  title: "Checkout Error",
  description: "Failed to redirect to payment page. Please try again.",
} as const;
export const PAYMENT_SUCCESSFUL = { title: "Payment Successful!" } as const;
export const PAYMENT_STATUS_UNKNOWN = {
  title: "Payment Status Unknown",
  description: "Unable to verify payment status. Please contact support if you were charged.",
} as const;
export const PAYMENT_STATUS_FETCH_ERROR = {
  title: "Error",
  description: "Unable to verify payment status. Please contact support.",
} as const;
export const PAYMENT_MONITOR_QUERY_ERROR = "Failed to fetch payment status";
/** The payment monitor, for a session id that matches no payment (or is malformed). */
export const PAYMENT_MONITOR_NOT_FOUND =
  "We could not find that payment. Check the session ID and try again.";
/** The payment monitor, when the status could not be read (say, too many checks or the server is busy). */
export const PAYMENT_MONITOR_TRY_AGAIN = `${PAYMENT_MONITOR_QUERY_ERROR}. Please try again in a moment.`;

/** The payment status values answered by GET /api/payment-status (completed, processing, failed, expired). */
/** refunded and disputed: a paid order that was refunded, or whose charge the buyer's bank is disputing. */
export type PaymentStatusValue =
  "completed" | "processing" | "failed" | "expired" | "refunded" | "disputed";

/** A payment status's colour: completed green, processing yellow, failed red, anything else neutral grey. */
export function paymentStatusColour(
  status: string | null | undefined,
): "green" | "yellow" | "red" | "grey" {
  switch (status) {
    case "completed":
      return "green";
    case "processing":
      return "yellow";
    case "failed":
      return "red";
    default:
      return "grey";
  }
}

/** Polling stops once the result is success with status completed. */
export function shouldKeepPolling(
  result: { success: boolean; paymentStatus: string } | null | undefined,
): boolean {
  return !(result?.success && result.paymentStatus === "completed");
}

/**
 * The cosmetic rating of a card (it means nothing). It is
 * derived from the listing id, so a card shows the same stars on every visit:
 * 4.0 to 5.0 in tenths.
 */
export function cosmeticRating(listingId: string): number {
  let hash = 2166136261;
  for (let i = 0; i < listingId.length; i++) {
    hash ^= listingId.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return 4 + ((hash >>> 0) % 11) / 10;
}

/** The admin's Orders view and GET /api/admin/orders: newest first, with their items. */
export interface AdminOrderView {
  id: string;
  status: (typeof ORDER_STATUSES)[number];
  /** `shopify`: sold in a creator's Shopify store and delivered by us (refunded in that store, not here). */
  provider: "stripe" | "test" | "shopify";
  customerEmail: string;
  customerName: string;
  /** Dollars paid (or to pay). */
  total: string;
  /** Dollars refunded so far. */
  refunded: string;
  createdAt: string;
  paidAt: string | null;
  refundedAt: string | null;
  refundReason: string | null;
  disputeStatus: string | null;
  /**
   * saleReference: the item's reference as its creator is shown it (earnings, payouts, sale notice);
   * creatorName: the creator's first and last name as stored ("Deleted creator" once erased).
   */
  items: {
    saleReference: string;
    listingId: string;
    title: string;
    creatorId: string;
    creatorName: string;
    price: string;
  }[];
}

/** Every status an order can have (the orders table's), in the order the admin's filter lists them. */
export const ORDER_STATUSES = [
  "pending",
  "paid",
  "refunded",
  "disputed",
  "failed",
  "expired",
] as const;

/** The payment state of a creator's sale, as the payment monitor shows it. */
export type CreatorSaleState = "paid" | "partly refunded" | "refunded" | "disputed";

/** One of a creator's sales on the payment monitor: no buyer details. */
export interface CreatorSale {
  /** The order item's id. */
  id: string;
  title: string;
  style: string;
  priceCents: number;
  currency: string;
  paidAt: string;
  /** Paid in the built-in test checkout: no money moved. */
  testCheckout: boolean;
  state: CreatorSaleState;
}
