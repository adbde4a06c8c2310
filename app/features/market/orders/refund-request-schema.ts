import { z } from "zod";
import { holdsOnlyXmlText } from "~/lib/xml-text";
import {
  REFUND_REASON_MAX,
  REFUND_REQUEST_STATUSES,
} from "~/features/market/orders/refund-request";

/**
 * A buyer's refund request and the admin's decision: the schemas the forms
 * (the library, the receipt, the admin portal), the API and the server share.
 * What the pages show of a request is in refund-request.ts, which the
 * browser loads without the schema library.
 */

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
