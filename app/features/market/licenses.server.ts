import { sql } from "kysely";
import type { DB } from "~/infra/db.server";
import { LICENSE_NAME } from "~/lib/license-terms";
import { centsToPriceString } from "~/lib/money";

/** The particulars of an order's license page; only paid orders have one. */
export interface OrderLicense {
  licenseName: string;
  orderId: string;
  buyer: { name: string; company: string | null };
  purchasedAt: string;
  currency: string;
  total: string;
  testMode: boolean;
  items: { title: string; style: string; price: string; creatorFirstName: string; listingId: string }[];
}

export async function licenseForOrder(db: DB, orderId: string): Promise<OrderLicense | null> {
  const order = await db.selectFrom("orders").selectAll().where("id", "=", orderId).where("status", "=", "paid").executeTakeFirst();
  if (!order) return null;
  const items = await db
    .selectFrom("order_items as i")
    .innerJoin("users as u", "u.id", "i.creator_id")
    .select(["i.title", "i.style", "i.price_cents", "i.listing_id", "u.first_name"])
    .where("i.order_id", "=", orderId)
    // Items in the order they were bought (the cart's order): rowid is insertion order.
    .orderBy(sql`i.rowid`)
    .execute();
  return {
    licenseName: LICENSE_NAME,
    orderId: order.id,
    buyer: { name: order.customer_name, company: order.customer_company },
    purchasedAt: order.paid_at ?? order.created_at,
    currency: order.currency,
    total: centsToPriceString(order.total_cents),
    testMode: order.provider === "test",
    items: items.map((item) => ({
      title: item.title,
      style: item.style,
      price: centsToPriceString(item.price_cents),
      creatorFirstName: item.first_name,
      listingId: item.listing_id,
    })),
  };
}
