import type { DiscountCodeRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { isUniqueViolation } from "~/infra/database-errors.server";
import { badRequest, conflict, notFound } from "~/infra/errors.server";
import { newId } from "~/infra/ids.server";
import { centsToPriceString, formatMoney } from "~/lib/money";
import { splitBundlePrice } from "~/features/market/bundles/price-split";
import type { DiscountInput } from "~/features/market/discounts/discount-schema";
import type { DiscountView } from "~/features/market/discounts/types";

export type { DiscountView };

/**
 * Discount codes (docs/decisions/103): a creator's codes take a percent or an
 * amount off that creator's items in a cart, never another creator's. The
 * amount off is the code's whole take on the order, spread over the items it
 * applies to in proportion to their prices (in whole cents that add up, as a
 * bundle's price is split), so each item's share and fee are computed on its
 * own discounted price. A code counts a use once per paid order, at
 * fulfilment, and only while uses are left (discount-redemption.server.ts).
 */

export function discountView(row: DiscountCodeRow): DiscountView {
  return {
    id: row.id,
    code: row.code,
    percentOff: row.percent_off,
    amountOff: row.amount_off_cents === null ? null : centsToPriceString(row.amount_off_cents),
    listingIds: row.listing_ids === null ? null : (JSON.parse(row.listing_ids) as string[]),
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    maxRedemptions: row.max_redemptions,
    redemptions: row.redemptions,
  };
}

export const duplicateCodeMessage = (code: string) =>
  `You already have the code ${code}. Choose another, or delete that one first.`;

/**
 * Makes a code of the creator's. 409 when they already have one of that text;
 * 404 for a listing that is not one of theirs; 400 for an amount off more than
 * the price of a listing it names.
 */
export async function createDiscount(
  db: DB,
  args: { userId: string; input: DiscountInput; now: Date },
): Promise<DiscountView> {
  const { input } = args;
  const listingIds =
    input.listingIds && input.listingIds.length > 0 ? [...new Set(input.listingIds)] : null;
  const amountOffCents = input.amountOff === undefined ? null : Math.round(input.amountOff * 100);
  if (listingIds) {
    const rows = await db
      .selectFrom("listings")
      .select(["id", "title", "price_cents"])
      .where("id", "in", listingIds)
      .where("user_id", "=", args.userId)
      .where("status", "=", "active")
      .execute();
    if (rows.length !== listingIds.length)
      throw notFound("Listing not found: a code applies only to your own live listings.");
    const cheapest = rows.reduce((low, row) => (row.price_cents < low.price_cents ? row : low));
    if (amountOffCents !== null && amountOffCents > cheapest.price_cents) {
      const message = `The amount off (${formatMoney(amountOffCents)}) is more than the price of “${cheapest.title}” (${formatMoney(cheapest.price_cents)}).`;
      throw badRequest(message, { amountOff: [message] });
    }
  }
  const stamp = args.now.toISOString();
  const row: DiscountCodeRow = {
    id: newId(),
    user_id: args.userId,
    code: input.code,
    percent_off: input.percentOff ?? null,
    amount_off_cents: amountOffCents,
    listing_ids: listingIds ? JSON.stringify(listingIds) : null,
    starts_at: input.startsAt ?? null,
    ends_at: input.endsAt ?? null,
    max_redemptions: input.maxRedemptions ?? null,
    redemptions: 0,
    deleted_at: null,
    created_at: stamp,
    updated_at: stamp,
  };
  try {
    await db.insertInto("discount_codes").values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error, { table: "discount_codes", column: "code" }))
      throw conflict(duplicateCodeMessage(input.code));
    throw error;
  }
  return discountView(row);
}

/** The creator's codes not deleted, newest first. */
export async function discountsOfCreator(db: DB, userId: string): Promise<DiscountView[]> {
  const rows = await db
    .selectFrom("discount_codes")
    .selectAll()
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(discountView);
}

/** Deletes one of the creator's codes: buyers can no longer use it (orders that did keep it). 404 for any other id. */
export async function deleteDiscount(
  db: DB,
  args: { userId: string; id: string; now: Date },
): Promise<void> {
  const stamp = args.now.toISOString();
  const result = await db
    .updateTable("discount_codes")
    .set({ deleted_at: stamp, updated_at: stamp })
    .where("id", "=", args.id)
    .where("user_id", "=", args.userId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound("Discount code not found");
}

/** An item of a cart as a code sees it. */
export interface DiscountableItem {
  listingId: string;
  creatorId: string;
  priceCents: number;
}

/** What a code takes off a cart: the codes used (one per creator holding that text) and each item's cents off, in the items' order. */
export interface CartDiscount {
  codes: DiscountCodeRow[];
  itemDiscounts: number[];
  /** The id of the code that applies to each item (null: none does). */
  itemCodes: (string | null)[];
  totalCents: number;
}

/**
 * What the code a buyer entered takes off the cart, or a 400 saying why it
 * takes nothing: unknown, not for any image in the cart (another creator's),
 * not started, expired, used up, or an amount off larger than the price of
 * what it applies to. Several creators may each have a code of that text:
 * each takes off its own creator's items.
 */
export async function discountForCart(
  db: DB,
  args: { code: string; items: readonly DiscountableItem[]; now: Date },
): Promise<CartDiscount> {
  const code = args.code.trim().toUpperCase();
  const refuse = (message: string) => badRequest(message, { discountCode: [message] });
  const rows = /^[A-Z0-9_-]{1,64}$/.test(code)
    ? await db
        .selectFrom("discount_codes")
        .selectAll()
        .where("code", "=", code)
        .where("deleted_at", "is", null)
        .orderBy("created_at")
        .orderBy("id")
        .execute()
    : [];
  if (rows.length === 0) throw refuse(`The discount code ${code} does not exist.`);
  const creators = new Set(args.items.map((item) => item.creatorId));
  const ours = rows.filter((row) => creators.has(row.user_id));
  if (ours.length === 0)
    throw refuse(
      `The discount code ${code} is another creator's: it takes money off only their images, and none is in your cart.`,
    );
  const itemDiscounts = args.items.map(() => 0);
  const itemCodes: (string | null)[] = args.items.map(() => null);
  const used: DiscountCodeRow[] = [];
  let firstRefusal: string | null = null;
  for (const row of ours) {
    const named =
      row.listing_ids === null ? null : new Set(JSON.parse(row.listing_ids) as string[]);
    const applies = args.items
      .map((item, index) => ({ item, index }))
      .filter(
        ({ item }) => item.creatorId === row.user_id && (!named || named.has(item.listingId)),
      );
    const subtotal = applies.reduce((sum, { item }) => sum + item.priceCents, 0);
    const off =
      row.percent_off !== null
        ? Math.round((subtotal * row.percent_off) / 100)
        : (row.amount_off_cents ?? 0);
    const refusal =
      applies.length === 0
        ? `The discount code ${code} does not apply to the images in your cart.`
        : row.starts_at !== null && Date.parse(row.starts_at) > args.now.getTime()
          ? `The discount code ${code} starts on ${row.starts_at.slice(0, 10)}.`
          : row.ends_at !== null && Date.parse(row.ends_at) <= args.now.getTime()
            ? `The discount code ${code} has expired.`
            : row.max_redemptions !== null && row.redemptions >= row.max_redemptions
              ? `The discount code ${code} has been used up.`
              : off > subtotal
                ? `The discount code ${code} takes off ${formatMoney(off)}, more than the ${formatMoney(subtotal)} of the images it applies to.`
                : null;
    if (refusal) {
      firstRefusal ??= refusal;
      continue;
    }
    const parts =
      off > 0
        ? splitBundlePrice(
            off,
            applies.map(({ item }) => item.priceCents),
          )
        : [];
    parts.forEach((cents, at) => (itemDiscounts[applies[at].index] += cents));
    for (const { index } of applies) itemCodes[index] = row.id;
    used.push(row);
  }
  if (used.length === 0) throw refuse(firstRefusal!);
  return {
    codes: used,
    itemDiscounts,
    itemCodes,
    totalCents: itemDiscounts.reduce((sum, cents) => sum + cents, 0),
  };
}

/**
 * Counts a paid order's use of a code, once, and only while uses are left:
 * false when the last use went to another order first (the caller then
 * refunds this one). Run inside the fulfilment's transaction.
 */
export async function redeemDiscount(db: DB, codeId: string): Promise<boolean> {
  const result = await db
    .updateTable("discount_codes")
    .set((eb) => ({ redemptions: eb("redemptions", "+", 1) }))
    .where("id", "=", codeId)
    .where((eb) =>
      eb.or([eb("max_redemptions", "is", null), eb("redemptions", "<", eb.ref("max_redemptions"))]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The erasure job's part: the creator's codes go (an order keeps only the id of the code it used). */
export async function deleteDiscountsOfCreator(db: DB, userId: string): Promise<void> {
  await db.deleteFrom("discount_codes").where("user_id", "=", userId).execute();
}

/** The creator's codes, deleted ones too, as their data export gives them. */
export async function discountsForExport(db: DB, userId: string) {
  const rows = await db
    .selectFrom("discount_codes")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({
    ...discountView(row),
    deletedAt: row.deleted_at,
    createdAt: row.created_at,
  }));
}
