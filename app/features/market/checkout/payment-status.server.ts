import {
  SELLER_ACCOUNT_CLOSED_REFUND_REASON,
  SELLER_SUSPENDED_REFUND_REASON,
} from "~/features/market/orders/suspended-seller-refunds.server";
import type { OrderRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { PaymentStatusValue } from "~/features/market/types";
import { centsToDollarAmount } from "~/lib/money";
import { isReverseCharge } from "~/features/market/checkout/checkout-tax";
import { downloadsOfOrder } from "~/features/market/orders/download-grants.server";
import {
  refundRequestOfOrder,
  refundStanding,
} from "~/features/market/orders/refund-requests.server";
import type { BuyerRefundRequest } from "~/features/market/orders/refund-request";
import type { LicenseType } from "~/lib/license-terms";

/**
 * GET /api/payment-status/{sessionId}, also behind the payment
 * monitor and the purchase-complete dialog. Downloads appear only once the
 * order is paid.
 */
export interface PaymentStatusDownload {
  style: string;
  filename: string;
  downloadUrl: string;
  title: string;
  /** The licence tier bought (decision 101); an item sold before the tiers reads standard. */
  licenseType: LicenseType;
  licenseUrl: string;
  expiresAt: string;
  downloadsLeft: number;
}

export interface PaymentStatusResult {
  success: boolean;
  paymentStatus: PaymentStatusValue;
  customerEmail: string | null;
  /** The name the buyer gave at checkout, or null when none was given (or it is only their address). */
  customerName: string | null;
  /** The items' prices, in the currency's units (dollars). */
  subtotal: number;
  /** The order's discount (0 until discount codes come). */
  discount: number;
  /** The tax charged (VAT, sales tax); 0 when none. */
  tax: number;
  /** What the buyer paid: subtotal - discount + tax. */
  total: number;
  currency: string;
  /** Where the buyer is (ISO 3166-1 alpha-2), or null when not known. */
  country: string | null;
  /** The VAT rate charged by the built-in test checkout, in percent (19 for 19 %); null when none or Stripe's. */
  taxRate: number | null;
  /** Whether the reverse charge applied (a business with a VAT number: the buyer accounts for the VAT). */
  reverseCharge: boolean;
  sessionId: string;
  orderId: string;
  error: string | null;
  licenseUrl: string | null;
  testMode: boolean;
  downloads: PaymentStatusDownload[];
  /** The buyer's refund request of the order, if they made one (POST /api/refund-requests). */
  refundRequest: BuyerRefundRequest | null;
  /** Until when the buyer may ask for a refund (null when they may not now). */
  refundableUntil: string | null;
}

const STATUS_OF: Record<OrderRow["status"], PaymentStatusValue> = {
  paid: "completed",
  pending: "processing",
  failed: "failed",
  expired: "expired",
  refunded: "refunded",
  disputed: "disputed",
};

/** The license page of an order: keyed by the order's own license id, which only the buyer's surfaces carry (never the order id, which creators see). */
export function licenseUrlOf(origin: string, order: Pick<OrderRow, "license_id">): string {
  return `${origin}/licenses/${order.license_id}`;
}

/** Why a payment was given back at once instead of delivering (a seller banned or gone since the checkout began), or null. */
function refusedSaleReason(order: OrderRow): string | null {
  const reason = order.refund_reason;
  return order.status === "refunded" &&
    (reason === SELLER_SUSPENDED_REFUND_REASON || reason === SELLER_ACCOUNT_CLOSED_REFUND_REASON)
    ? reason
    : null;
}

/** The buyer's name as typed, or null when none was given (a sale from elsewhere may store the address as the name). */
function givenName(order: Pick<OrderRow, "customer_name" | "customer_email">): string | null {
  const name = order.customer_name.trim();
  return name && name !== order.customer_email ? name : null;
}

/** The status of the order found by `sessionId` (only its hash is stored, so the caller's id is echoed back). */
export async function paymentStatusOf(
  db: DB,
  order: OrderRow,
  sessionId: string,
  origin: string,
  refund: { now: Date; windowDays: number },
): Promise<PaymentStatusResult> {
  const paid = order.status === "paid";
  const standing = refundStanding(
    order,
    await refundRequestOfOrder(db, order.id),
    refund.now,
    refund.windowDays,
  );
  const licenseUrl = paid ? licenseUrlOf(origin, order) : null;
  const downloads = paid ? await downloadsOfOrder(db, order.id, origin) : [];
  return {
    success: paid,
    paymentStatus: STATUS_OF[order.status],
    customerEmail: order.customer_email || null,
    customerName: givenName(order),
    subtotal: centsToDollarAmount(order.subtotal_cents),
    discount: centsToDollarAmount(order.discount_cents),
    tax: centsToDollarAmount(order.tax_cents),
    total: centsToDollarAmount(order.total_cents),
    currency: order.currency,
    country: order.country,
    taxRate: order.tax_rate_bps === null ? null : order.tax_rate_bps / 100,
    reverseCharge: isReverseCharge(order),
    sessionId,
    orderId: order.id,
    error:
      order.status === "failed" || order.status === "expired"
        ? order.failure_reason
        : refusedSaleReason(order),
    licenseUrl,
    testMode: order.provider === "test",
    downloads: downloads.map((download) => ({
      style: download.style,
      filename: download.filename,
      downloadUrl: download.downloadUrl,
      title: download.title,
      licenseType: download.licenseType,
      licenseUrl: licenseUrl!,
      expiresAt: download.expiresAt,
      downloadsLeft: download.downloadsLeft,
    })),
    refundRequest: standing.request,
    refundableUntil: standing.refundableUntil,
  };
}

/**
 * Status polls of a pending order ask the payment provider at most once per
 * interval; in between they answer from the database (which the webhook also
 * keeps current). Concurrent polls share the lookup in flight. The buyer's
 * return from the payment page always asks (`force`), since the payment has
 * usually just happened. Kept in memory, per process, on purpose: after a
 * restart the first poll asks, and with several processes each asks at most
 * once per interval (a few more lookups, never a second fulfilment: that
 * rests on the database, fulfillment.server.ts). The schedule only spares the
 * provider; nothing is correct or wrong by it.
 */
export const PROVIDER_CHECK_INTERVAL_MS = 10_000;

export class ProviderCheckSchedule {
  private readonly lastAsked = new Map<string, number>();
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(private readonly intervalMs = PROVIDER_CHECK_INTERVAL_MS) {}

  /** Runs `ask` for this order unless a poll asked within the interval or a lookup is running (then waits for it). */
  async check(
    orderId: string,
    nowMs: number,
    ask: () => Promise<void>,
    options: { force?: boolean } = {},
  ): Promise<void> {
    if (!options.force) {
      const running = this.inFlight.get(orderId);
      if (running) return running;
      const last = this.lastAsked.get(orderId);
      if (last !== undefined && Math.abs(nowMs - last) < this.intervalMs) return;
    }
    this.forgetOld(nowMs);
    this.lastAsked.set(orderId, nowMs);
    const run = ask().finally(() => {
      if (this.inFlight.get(orderId) === run) this.inFlight.delete(orderId);
    });
    this.inFlight.set(orderId, run);
    return run;
  }

  private forgetOld(nowMs: number) {
    if (this.lastAsked.size < 10_000) return;
    for (const [orderId, at] of this.lastAsked) {
      if (Math.abs(nowMs - at) >= this.intervalMs) this.lastAsked.delete(orderId);
    }
  }
}

export const providerChecks = new ProviderCheckSchedule();
