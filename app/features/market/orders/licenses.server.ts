import type { DB } from "~/infra/db.server";
import {
  LICENSES,
  licenseEditionOf,
  licenseTypeOf,
  type LicenseEdition,
  type LicenseTerm,
  type LicenseType,
} from "~/lib/license-terms";
import { centsToPriceString } from "~/lib/money";

/**
 * The particulars of an order's license page: paid orders have one; a refunded
 * order's page says the license was revoked and when; a disputed order's says
 * it is suspended while the dispute is open.
 */
export interface OrderLicense {
  licenseName: string;
  orderId: string;
  buyer: { name: string; company: string | null };
  purchasedAt: string;
  currency: string;
  total: string;
  testMode: boolean;
  /** When the license was revoked (the order was refunded in full); null while it stands. */
  revokedAt: string | null;
  /** A payment dispute is open: the license and downloads are suspended until it closes. */
  suspended: boolean;
  /**
   * The licences of the order's items, each with its terms as sold (decision
   * 101): a tier, or the original single licence of an item sold before the tiers.
   */
  licenses: { edition: LicenseEdition; name: string; terms: readonly LicenseTerm[] }[];
  items: {
    title: string;
    style: string;
    price: string;
    /** The tier (an item sold before the tiers reads standard) and its licence's name. */
    licenseType: LicenseType;
    licenseName: string;
    /** The creator's first name, or FORMER_CREATOR once their account is erased (its stored name is a placeholder). */
    creatorFirstName: string;
    listingId: string;
  }[];
}

/** Who made an item whose creator has since erased their account: the page reads "by a former creator". */
export const FORMER_CREATOR = "a former creator";

/** The license page behind a license id (orders.license_id, never the order id); null when there is none or the order was never paid. */
export async function licenseByLicenseId(db: DB, licenseId: string): Promise<OrderLicense | null> {
  const order = await db
    .selectFrom("orders")
    .selectAll()
    .where("license_id", "=", licenseId)
    .where("status", "in", ["paid", "disputed", "refunded"])
    .executeTakeFirst();
  if (!order) return null;
  const orderId = order.id;
  const items = await db
    .selectFrom("order_items as i")
    .innerJoin("users as u", "u.id", "i.creator_id")
    .select([
      "i.title",
      "i.style",
      "i.price_cents",
      "i.listing_id",
      "i.license_type",
      "u.first_name",
      "u.erased_at",
    ])
    .where("i.order_id", "=", orderId)
    // Items in the order they were bought (the cart's order): their positions.
    .orderBy("i.position")
    .execute();
  const editions = [...new Set(items.map((item) => licenseEditionOf(item.license_type)))];
  return {
    // One tier: its name; several: each item names its own.
    licenseName: editions.length === 1 ? LICENSES[editions[0]].name : "Commercial Licenses",
    licenses: editions.map((edition) => ({
      edition,
      name: LICENSES[edition].name,
      terms: LICENSES[edition].terms,
    })),
    orderId: order.id,
    buyer: { name: order.customer_name, company: order.customer_company },
    purchasedAt: order.paid_at ?? order.created_at,
    currency: order.currency,
    total: centsToPriceString(order.total_cents),
    testMode: order.provider === "test",
    revokedAt: order.status === "refunded" ? (order.refunded_at ?? order.updated_at) : null,
    suspended: order.status === "disputed",
    items: items.map((item) => ({
      title: item.title,
      style: item.style,
      price: centsToPriceString(item.price_cents),
      licenseType: licenseTypeOf(item.license_type),
      licenseName: LICENSES[licenseEditionOf(item.license_type)].name,
      creatorFirstName: item.erased_at ? FORMER_CREATOR : item.first_name,
      listingId: item.listing_id,
    })),
  };
}
