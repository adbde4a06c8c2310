/** A code as its creator sees it (the Discounts screen and GET /api/token-discounts). */
export interface DiscountView {
  id: string;
  code: string;
  percentOff: number | null;
  /** Dollars, as prices are answered ("5", "2.50"); null for a percent off. */
  amountOff: string | null;
  /** The listings it applies to; null: all of the creator's. */
  listingIds: string[] | null;
  startsAt: string | null;
  endsAt: string | null;
  maxRedemptions: number | null;
  redemptions: number;
}
