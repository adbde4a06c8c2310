import { Form, useNavigation } from "@remix-run/react";
import { longDate } from "~/lib/dates";
import {
  REFUND_REASON_MAX,
  refundRequestStateText,
  type BuyerRefundRequest,
} from "~/features/market/orders/refund-request";

/** Where the buyer's refund forms post (a plain form: works without JavaScript). */
export const REFUND_REQUESTS_ACTION = "/refund-requests";

/**
 * A buyer's refund request on their library and their receipt: the request's
 * state when they made one; otherwise, while the refund window is open, a
 * form (a reason and a button, folded under "Ask for a refund") that posts to
 * /refund-requests with the key the page holds (the library link's token and
 * the order, or the checkout session). Nothing once the window has closed.
 */
export function RefundRequestPanel({
  request,
  refundableUntil,
  keyFields,
  formId,
}: {
  request: BuyerRefundRequest | null;
  refundableUntil: string | null;
  /** The hidden fields that say who asks for what: `intent` and its key. */
  keyFields: Record<string, string>;
  /** Unique on the page: the form's id and its fields' ids start with it. */
  formId: string;
}) {
  const navigation = useNavigation();
  if (request) {
    return (
      <p
        className={
          request.status === "declined"
            ? "mt-2 rounded-md bg-amber-50 px-3 py-2 text-sm wrap-anywhere text-amber-900"
            : "mt-2 rounded-md bg-slate-100 px-3 py-2 text-sm wrap-anywhere text-slate-800"
        }
        data-testid="refund-request-state"
        data-status={request.status}
      >
        {refundRequestStateText(request)}
      </p>
    );
  }
  if (!refundableUntil) return null;
  const pending =
    navigation.state !== "idle" &&
    navigation.formAction === REFUND_REQUESTS_ACTION &&
    navigation.formData?.get("formId") === formId;
  const reasonId = `${formId}-reason`;
  return (
    <details className="mt-3 rounded-lg bg-slate-50 p-3" data-testid="refund-request">
      <summary className="cursor-pointer text-sm font-medium text-slate-900">
        Ask for a refund
      </summary>
      <Form
        method="post"
        action={REFUND_REQUESTS_ACTION}
        className="mt-2 space-y-2"
        id={formId}
        data-testid="refund-request-form"
      >
        {Object.entries(keyFields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="formId" value={formId} />
        <p className="text-sm text-slate-600">
          Refunds are given on request until {longDate(refundableUntil)}. The admin reads your
          reason and tells you by email; a refunded order&apos;s downloads and license end.
        </p>
        <label htmlFor={reasonId} className="block text-sm text-slate-700">
          Why do you ask for a refund?
        </label>
        <textarea
          id={reasonId}
          name="reason"
          rows={3}
          required
          maxLength={REFUND_REASON_MAX}
          className="field-input w-full"
        />
        <button type="submit" className="btn-secondary" disabled={pending}>
          {pending ? "Sending..." : "Ask for a refund"}
        </button>
      </Form>
    </details>
  );
}
