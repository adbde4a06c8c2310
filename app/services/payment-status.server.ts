import type { OrderRow } from "#db/schema";
import type { DB } from "~/server/db.server";
import type { PaymentStatusValue } from "~/lib/market";
import { centsToDollarAmount } from "~/lib/money";
import { downloadsOfOrder } from "./download-grants.server";

/**
 * GET /api/payment-status/{sessionId} (api.md), also behind the payment
 * monitor and the purchase-complete dialog. Downloads appear only once the
 * order is paid.
 */
export interface PaymentStatusDownload {
  style: string;
  filename: string;
  downloadUrl: string;
  title: string;
  licenseUrl: string;
  expiresAt: string;
  downloadsLeft: number;
}

export interface PaymentStatusResult {
  success: boolean;
  paymentStatus: PaymentStatusValue;
  customerEmail: string | null;
  /** Dollars. */
  total: number;
  currency: string;
  sessionId: string;
  orderId: string;
  error: string | null;
  licenseUrl: string | null;
  testMode: boolean;
  downloads: PaymentStatusDownload[];
}

const STATUS_OF: Record<OrderRow["status"], PaymentStatusValue> = {
  paid: "completed",
  pending: "processing",
  failed: "failed",
  expired: "expired",
};

export function licenseUrlOf(origin: string, orderId: string): string {
  return `${origin}/licenses/${orderId}`;
}

export async function paymentStatusOf(db: DB, order: OrderRow, origin: string): Promise<PaymentStatusResult> {
  const paid = order.status === "paid";
  const licenseUrl = paid ? licenseUrlOf(origin, order.id) : null;
  const downloads = paid ? await downloadsOfOrder(db, order.id, origin) : [];
  return {
    success: paid,
    paymentStatus: STATUS_OF[order.status],
    customerEmail: order.customer_email || null,
    total: centsToDollarAmount(order.total_cents),
    currency: order.currency,
    sessionId: order.checkout_session_id ?? "",
    orderId: order.id,
    error: order.status === "failed" || order.status === "expired" ? order.failure_reason : null,
    licenseUrl,
    testMode: order.provider === "test",
    downloads: downloads.map((download) => ({
      style: download.style,
      filename: download.filename,
      downloadUrl: download.downloadUrl,
      title: download.title,
      licenseUrl: licenseUrl!,
      expiresAt: download.expiresAt,
      downloadsLeft: download.downloadsLeft,
    })),
  };
}
