import { ORDER_STATUSES, type AdminOrderView } from "~/features/market/types";
import type { AdminPayoutRow } from "~/features/payouts/types";
import { formatDollars } from "~/features/admin/types";

/**
 * What the Admin Portal's Orders and Payouts sections show, and their copy.
 * The shapes follow what the market's `adminOrders` and the payouts'
 * `adminPayouts` answer (GET /api/admin/orders and /api/admin/payouts).
 */

/** An order as the Orders section shows it: the market's view of it. */
export type AdminOrder = AdminOrderView;
export type AdminOrderStatus = AdminOrderView["status"];

/** The order statuses in the status filter, in the order shown. */
export const ADMIN_ORDER_STATUSES = ORDER_STATUSES;

export const ORDER_STATUS_LABELS: Record<AdminOrderStatus, string> = {
  pending: "Pending",
  paid: "Paid",
  refunded: "Refunded",
  disputed: "Disputed",
  failed: "Failed",
  expired: "Expired",
};

export function isAdminOrderStatus(value: unknown): value is AdminOrderStatus {
  return typeof value === "string" && (ADMIN_ORDER_STATUSES as readonly string[]).includes(value);
}

/** A creator's row in the Payouts section, as the payouts feature answers it. */
export type { AdminPayoutRow } from "~/features/payouts/types";

/** The account states in the admin's words (the creator's own screens say them differently). */
export const PAYOUT_ACCOUNT_LABELS: Record<AdminPayoutRow["account"]["status"], string> = {
  not_connected: "Not set up",
  pending: "Pending",
  active: "Active",
  restricted: "Restricted",
};

/**
 * The Admin Portal's URL parameters for the Orders section. The user search
 * already uses `q` and `view`, so the order search has names of its own.
 */
export const ORDER_SEARCH_PARAM = "orderSearch";
export const ORDER_STATUS_PARAM = "orderStatus";
/** `?refund=<orderId>` opens the refund confirmation for that order. */
export const REFUND_PARAM = "refund";

/** The most characters of an order search (an email or an order id). */
export const ORDER_SEARCH_MAX = 320;
/** The most characters of a refund reason. */
export const REFUND_REASON_MAX = 500;

/** "$12.50" for a dollar string such as "12.5" or "25". */
export function formatDollarString(amount: string): string {
  const dollars = Number(amount);
  return formatDollars(Number.isFinite(dollars) ? dollars : 0);
}

/** What is left to refund of an order, as a dollar string. */
export function refundableAmount(order: Pick<AdminOrder, "total" | "refunded">): string {
  const cents = Math.round(Number(order.total) * 100) - Math.round(Number(order.refunded) * 100);
  return (Math.max(0, cents) / 100).toFixed(2);
}

/** What a refund does, in the confirmation panel. */
export function refundConsequences(amount: string): string {
  return `The buyer gets ${formatDollarString(amount)} back, the order's download links stop working, its license is revoked and the creators' shares are reversed.`;
}

export const refundedNotice = (orderId: string) => `Order ${orderId} refunded.`;
export const REFUND_FAILED_TITLE = "Refund failed";
