/**
 * A buyer's refund request as the pages show it (the library, the receipt,
 * the admin portal) and the API answers it: its states, the words for them and
 * the longest reason. Free of the schemas (refund-request-schema.ts), so a
 * public page that shows a request does not load the schema library.
 */

/** The longest reason a buyer may give, and the longest the admin may mail back. */
export const REFUND_REASON_MAX = 1000;

export const REFUND_REQUEST_STATUSES = ["requested", "refunded", "declined"] as const;
export type RefundRequestState = (typeof REFUND_REQUEST_STATUSES)[number];

/** A request as its buyer sees it (the library, the receipt, the API). */
export interface BuyerRefundRequest {
  status: RefundRequestState;
  requestedAt: string;
  decidedAt: string | null;
  /** The admin's reason, when declined. */
  declineReason: string | null;
}

/** A request as the admin sees it (the portal's Refund requests, GET /api/admin/refund-requests). */
export interface AdminRefundRequest {
  id: string;
  orderId: string;
  status: RefundRequestState;
  reason: string;
  requestedAt: string;
  decidedAt: string | null;
  declineReason: string | null;
  /** The order as it stands now. */
  orderStatus: string;
  customerEmail: string;
  /** "$20.00" */
  total: string;
  paidAt: string | null;
  testMode: boolean;
  items: { title: string; style: string; saleReference: string }[];
}

/** The words the buyer's surfaces use for a request's state. */
export function refundRequestStateText(request: BuyerRefundRequest): string {
  if (request.status === "refunded") return "Refund requested and granted: the order is refunded.";
  if (request.status === "declined")
    return `Refund requested and declined${request.declineReason ? `: ${request.declineReason}` : "."}`;
  return "Refund requested: the admin decides and you will be told by email.";
}
