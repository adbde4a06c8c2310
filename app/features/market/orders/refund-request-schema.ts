import { z } from "zod";
import { holdsOnlyXmlText } from "~/lib/xml-text";

/**
 * A buyer's refund request and the admin's decision: what the forms (the
 * library, the receipt, the admin portal), the API and the server share.
 */

/** The longest reason a buyer may give, and the longest the admin may mail back. */
export const REFUND_REASON_MAX = 1000;

export const REFUND_REQUEST_STATUSES = ["requested", "refunded", "declined"] as const;
export type RefundRequestState = (typeof REFUND_REQUEST_STATUSES)[number];

const ASK_WHY = "Say in a few words why you ask for a refund.";
const SAY_WHY = "Say why the refund is declined: the buyer is mailed this.";
const PLAIN_TEXT = "Use plain text: no control characters or invisible non-characters.";

/** Text someone types for another to read: trimmed, 1 to REFUND_REASON_MAX characters, plain. */
function reasonText(missing: string) {
  return z
    .string(missing)
    .trim()
    .min(1, missing)
    .max(REFUND_REASON_MAX, `Keep it to ${REFUND_REASON_MAX} characters.`)
    .refine(holdsOnlyXmlText, PLAIN_TEXT);
}

/** An id (an order's, a request's): never a control character, which no id holds and PostgreSQL refuses. */
function idText(missing: string) {
  return z
    .string(missing)
    .trim()
    .min(1, missing)
    .max(100, missing)
    .refine(holdsOnlyXmlText, missing);
}

/** The buyer's reason. */
export const refundReasonSchema = reasonText(ASK_WHY);

/** The receipt's form and POST /api/refund-requests: the buyer's own checkout session is the key. */
export const sessionRefundRequestSchema = z.object({
  sessionId: z
    .string("Give the checkout session id of your order.")
    .trim()
    .min(1, "Give the checkout session id of your order.")
    .max(300),
  reason: refundReasonSchema,
});

/** The library's form: the signed library link's token is the key, the order one of its orders. */
export const libraryRefundRequestSchema = z.object({
  token: z.string().max(1000),
  orderId: idText("Which order?"),
  reason: refundReasonSchema,
});

/** The admin's list: every request, or those of one state. */
export const adminRefundRequestsSchema = z.object({
  status: z
    .enum(REFUND_REQUEST_STATUSES, { error: "status is requested, refunded or declined" })
    .optional(),
});

/** The admin approves a request: the order is refunded. */
export const approveRefundRequestSchema = z.object({ id: idText("Which request?") });

/** The admin declines a request, with the reason the buyer is mailed. */
export const declineRefundRequestSchema = z.object({
  id: idText("Which request?"),
  reason: reasonText(SAY_WHY),
});

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
