import { LICENSES } from "~/lib/license-terms";
import { centsToPriceString } from "~/lib/money";
import { reverseChargeNote, taxLabel } from "~/features/market/checkout/checkout-tax";
import type { ProcedureResult } from "~/infra/procedure.server";
import type { testCheckoutSession } from "~/features/market/checkout/procedures.server";

/** The test checkout page's session: the order's total and each item's price also as dollar strings ("12.00"). */
export function testCheckoutView(session: ProcedureResult<typeof testCheckoutSession>) {
  return {
    sessionId: session.sessionId,
    status: session.status,
    closedReason: session.closedReason,
    customer: session.customer,
    total: centsToPriceString(session.totalCents),
    totalCents: session.totalCents,
    subtotalCents: session.subtotalCents,
    discountCents: session.discountCents,
    taxCents: session.taxCents,
    /** "VAT 19% (Germany)", or null when no tax was charged. */
    taxLabel:
      session.taxCents > 0
        ? taxLabel({ rateBps: session.taxRateBps, country: session.country })
        : null,
    reverseChargeNote: session.reverseChargeVatNumber
      ? reverseChargeNote(session.reverseChargeVatNumber)
      : null,
    items: session.items.map((item) => ({
      id: item.id,
      title: item.title,
      style: item.style,
      price: centsToPriceString(item.priceCents),
      /** "Extended Commercial License": the tier bought. */
      licenseName: LICENSES[item.licenseType].name,
    })),
  };
}
