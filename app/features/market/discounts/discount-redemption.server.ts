import type { DB } from "~/infra/db.server";
import { redeemDiscount } from "~/features/market/discounts/discounts.server";

/**
 * A paid order's discount codes count their use here, in the fulfilling
 * transaction, once per order (only the call that marked the order paid gets
 * this far). A code whose last use another order took first while this buyer
 * was paying refuses this order: the caller refunds it at once, in full
 * (docs/decisions/103). The codes go in id order, so two orders never wait on
 * each other in a circle.
 */

export const CODE_USED_UP_REFUND_REASON =
  "The discount code was used up by another order while you paid, so the payment was refunded";

export async function redeemCodesOfOrder(
  trx: DB,
  items: readonly { discount_code_id: string | null }[],
): Promise<{ ok: boolean; redeemed: string[] }> {
  const codeIds = [
    ...new Set(items.flatMap((item) => (item.discount_code_id ? [item.discount_code_id] : []))),
  ].sort();
  const redeemed: string[] = [];
  for (const codeId of codeIds) {
    if (!(await redeemDiscount(trx, codeId))) {
      await releaseCodes(trx, redeemed);
      return { ok: false, redeemed: [] };
    }
    redeemed.push(codeId);
  }
  return { ok: true, redeemed };
}

/** Gives back uses counted for an order that is refunded in the same transaction after all. */
export async function releaseCodes(trx: DB, codeIds: readonly string[]): Promise<void> {
  for (const codeId of codeIds)
    await trx
      .updateTable("discount_codes")
      .set((eb) => ({ redemptions: eb("redemptions", "-", 1) }))
      .where("id", "=", codeId)
      .where("redemptions", ">", 0)
      .execute();
}
