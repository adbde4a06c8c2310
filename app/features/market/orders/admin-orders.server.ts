import { sql, type SqlBool } from "kysely";
import type { OrderRow, OrderStatus } from "#db/schema";
import type { AdminOrderView } from "~/features/market/types";
import type { DB } from "~/infra/db.server";
import { centsToPriceString } from "~/lib/money";

export { ORDER_STATUSES, type AdminOrderView } from "~/features/market/types";

/** The most orders one search shows. */
export const ADMIN_ORDERS_LIMIT = 100;

export async function toAdminOrderViews(db: DB, orders: OrderRow[]): Promise<AdminOrderView[]> {
  if (orders.length === 0) return [];
  const items = await db
    .selectFrom("order_items as i")
    .innerJoin("users as u", "u.id", "i.creator_id")
    .select([
      "i.id",
      "i.order_id",
      "i.listing_id",
      "i.title",
      "i.creator_id",
      "i.price_cents",
      "u.first_name",
      "u.last_name",
    ])
    .where(
      "i.order_id",
      "in",
      orders.map((order) => order.id),
    )
    .orderBy("i.position")
    .execute();
  return orders.map((order) => ({
    id: order.id,
    status: order.status,
    provider: order.provider,
    customerEmail: order.customer_email,
    customerName: order.customer_name,
    total: centsToPriceString(order.total_cents),
    refunded: centsToPriceString(order.refunded_cents),
    createdAt: order.created_at,
    paidAt: order.paid_at,
    refundedAt: order.refunded_at,
    refundReason: order.refund_reason,
    disputeStatus: order.dispute_status,
    items: items
      .filter((item) => item.order_id === order.id)
      .map((item) => ({
        saleReference: item.id,
        listingId: item.listing_id,
        title: item.title,
        creatorId: item.creator_id,
        // As stored: an erased creator's names read "Deleted creator".
        creatorName: `${item.first_name} ${item.last_name}`.trim(),
        price: centsToPriceString(item.price_cents),
      })),
  }));
}

/**
 * `q` matches an order id or a sale reference (what creators are shown of an
 * item they sold) exactly, or an email in part (case-insensitive); `status`
 * narrows to one status.
 */
export async function searchOrders(
  db: DB,
  filter: { q?: string; status?: OrderStatus },
): Promise<AdminOrderView[]> {
  // No stored text holds a NUL character (PostgreSQL's text cannot), so a term with one finds nothing.
  if (filter.q?.includes("\0")) return [];
  const q = filter.q?.trim().toLowerCase();
  const rows = await db
    .selectFrom("orders")
    .selectAll()
    .$if(Boolean(q), (qb) =>
      qb.where((eb) =>
        eb.or([
          eb("id", "=", filter.q!.trim()),
          eb(
            "id",
            "in",
            eb.selectFrom("order_items").select("order_id").where("id", "=", filter.q!.trim()),
          ),
          sql<SqlBool>`lower(customer_email) like ${`%${q!.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`,
        ]),
      ),
    )
    .$if(filter.status !== undefined, (qb) => qb.where("status", "=", filter.status!))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(ADMIN_ORDERS_LIMIT)
    .execute();
  return toAdminOrderViews(db, rows);
}
