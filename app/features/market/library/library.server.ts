import type { DB } from "~/infra/db.server";
import type { OrderItemRow, OrderRow } from "#db/schema";
import { formatMoney } from "~/lib/money";
import { licenseUrlOf } from "~/features/market/checkout/payment-status.server";
import {
  GRANT_RENEWAL_HOURS,
  downloadFilename,
  grantToken,
  issueDownloadGrants,
  renewSpentGrant,
} from "~/features/market/orders/download-grants.server";
import { normalizeEmail } from "~/features/market/library/library-token.server";
import {
  refundRequestsOfOrders,
  refundStanding,
} from "~/features/market/orders/refund-requests.server";
import type { BuyerRefundRequest } from "~/features/market/orders/refund-request";

/**
 * The buyer's library: every paid order of one email, newest first, with a
 * Download link (a /downloads grant) and a License link per item. Showing the
 * page never spends a download; it renews an item's used-up or expired grant,
 * at most once per item in GRANT_RENEWAL_HOURS (download-grants.server.ts).
 * A refunded order stays in the list, marked refunded, with no Download link
 * (its downloads and license ended with the refund). Each order says its
 * refund request, if the buyer made one, and until when one may be made
 * (refund-requests.server.ts).
 */
export interface LibraryItem {
  orderItemId: string;
  title: string;
  style: string;
  /** "$12.00" */
  price: string;
  filename: string;
  licenseUrl: string;
  /** Null while the item's grant is used up or expired and not yet renewable. */
  downloadUrl: string | null;
  expiresAt: string;
  downloadsLeft: number;
  /** When a used-up or expired grant can next be renewed (null when it works). */
  renewableAt: string | null;
}

export interface LibraryOrder {
  orderId: string;
  paidAt: string;
  total: string;
  currency: string;
  testMode: boolean;
  /** The order was refunded in full: listed for the record, with nothing to download. */
  refunded: boolean;
  licenseUrl: string;
  items: LibraryItem[];
  /** The buyer's refund request of the order, if they made one. */
  refundRequest: BuyerRefundRequest | null;
  /** Until when the buyer may ask for a refund (null when they may not now). */
  refundableUntil: string | null;
}

/** Whether this email has at least one paid order. */
export async function hasPaidOrders(db: DB, email: string): Promise<boolean> {
  const row = await db
    .selectFrom("orders")
    .select("id")
    .where("customer_email", "=", normalizeEmail(email))
    .where("status", "=", "paid")
    .executeTakeFirst();
  return Boolean(row);
}

export async function libraryOf(
  db: DB,
  email: string,
  origin: string,
  now: Date,
  refundWindowDays: number,
): Promise<LibraryOrder[]> {
  const orders = await db
    .selectFrom("orders")
    .selectAll()
    .where("customer_email", "=", normalizeEmail(email))
    .where("status", "in", ["paid", "refunded"])
    .orderBy("paid_at", (order) => order.desc().nullsLast())
    .orderBy("created_at", "desc")
    .execute();
  const stamp = now.toISOString();
  const requests = await refundRequestsOfOrders(
    db,
    orders.map((order) => order.id),
  );
  const result: LibraryOrder[] = [];
  for (const order of orders) {
    const standing = refundStanding(order, requests.get(order.id), now, refundWindowDays);
    const refund = { refundRequest: standing.request, refundableUntil: standing.refundableUntil };
    const items = await db
      .selectFrom("order_items")
      .selectAll()
      .where("order_id", "=", order.id)
      .orderBy("position")
      .execute();
    const licenseUrl = licenseUrlOf(origin, order);
    if (order.status === "refunded") {
      result.push({
        ...orderSummary(order),
        ...refund,
        refunded: true,
        licenseUrl,
        items: items.map((item) =>
          refundedItem(item, licenseUrl, order.refunded_at ?? order.updated_at, order.currency),
        ),
      });
      continue;
    }
    // An item without a grant (none should be) gets one.
    await issueDownloadGrants(db, items, now);
    const grants = await db
      .selectFrom("download_grants")
      .selectAll()
      .where("order_id", "=", order.id)
      .execute();
    const spent = grants.filter(
      (grant) => grant.downloads_used >= grant.max_downloads || grant.expires_at <= stamp,
    );
    for (const grant of spent) await renewSpentGrant(db, grant.id, now);
    const current = spent.length
      ? await db
          .selectFrom("download_grants")
          .selectAll()
          .where("order_id", "=", order.id)
          .execute()
      : grants;
    const grantOf = new Map(current.map((grant) => [grant.order_item_id, grant]));
    result.push({
      ...orderSummary(order),
      ...refund,
      refunded: false,
      licenseUrl,
      items: items.map((item) => {
        const grant = grantOf.get(item.id)!;
        const usable = grant.downloads_used < grant.max_downloads && grant.expires_at > stamp;
        return {
          orderItemId: item.id,
          title: item.title,
          style: item.style,
          price: formatMoney(item.price_cents, order.currency),
          filename: downloadFilename(item.title, item.style, item.file_key),
          licenseUrl,
          downloadUrl: usable ? `${origin}/downloads/${grantToken(grant.id)}` : null,
          expiresAt: grant.expires_at,
          downloadsLeft: usable ? grant.max_downloads - grant.downloads_used : 0,
          renewableAt: usable
            ? null
            : new Date(
                Date.parse(grant.created_at) + GRANT_RENEWAL_HOURS * 60 * 60 * 1000,
              ).toISOString(),
        };
      }),
    });
  }
  return result;
}

function orderSummary(order: OrderRow) {
  return {
    orderId: order.id,
    paidAt: order.paid_at ?? order.updated_at,
    total: formatMoney(order.total_cents, order.currency),
    currency: order.currency,
    testMode: order.provider === "test",
  };
}

/** An item of a refunded order: what was bought, nothing to download (its downloads ended at the refund). */
function refundedItem(
  item: OrderItemRow,
  licenseUrl: string,
  refundedAt: string,
  currency: string,
): LibraryItem {
  return {
    orderItemId: item.id,
    title: item.title,
    style: item.style,
    price: formatMoney(item.price_cents, currency),
    filename: downloadFilename(item.title, item.style, item.file_key),
    licenseUrl,
    downloadUrl: null,
    expiresAt: refundedAt,
    downloadsLeft: 0,
    renewableAt: null,
  };
}
