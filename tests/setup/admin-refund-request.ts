import type { AdminRefundRequest } from "~/features/market/orders/refund-request";

/** A buyer's refund request waiting for the admin's decision, as the admin screens are given it. */
export const WAITING_REFUND_REQUEST: AdminRefundRequest = {
  id: "rr1",
  orderId: "ord_1",
  status: "requested",
  reason: "Not what the preview showed.",
  requestedAt: "2026-03-04T12:00:00.000Z",
  decidedAt: null,
  declineReason: null,
  orderStatus: "paid",
  customerEmail: "bea@example.com",
  total: "$20.00",
  paidAt: "2026-03-03T12:00:00.000Z",
  testMode: false,
  items: [{ title: "Beach", style: "anime", saleReference: "oi_1" }],
};
