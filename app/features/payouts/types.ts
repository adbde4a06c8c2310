/** The creator keeps 85% of each sale (the beta plan's promise); the platform keeps the rest. */
export const CREATOR_SHARE_PERCENT = 85;

/** A creator's payout account as screens and GET /api/token-payouts show it. */
export interface PayoutAccountView {
  provider: "stripe" | "test";
  status: "not_connected" | "pending" | "active" | "restricted";
  payoutsEnabled: boolean;
  /** The country the account was made in (null before setup). */
  country: string | null;
  /** The account is in another country than the platform: Stripe's cross-border payouts (recipient service agreement). */
  crossBorder: boolean;
}

/** Dollar strings: earned = owed + transferred + held; reversed is what refunds took back. */
export interface PayoutBalance {
  earned: string;
  owed: string;
  transferred: string;
  held: string;
  reversed: string;
}

export interface PayoutTransferView {
  /** The provider's transfer id. */
  id: string;
  /** The title of the image sold, as it was sold. */
  title: string;
  /** The sold item's reference, as in the earnings and the sale notice (the order id is the buyer's). */
  saleReference: string;
  /** Dollars sent. */
  amount: string;
  /** Dollars taken back since by refunds. */
  reversed: string;
  status: "owed" | "transferred" | "held" | "reversed" | "elsewhere";
  createdAt: string;
  testMode: boolean;
}

export interface PayoutsOverview {
  account: PayoutAccountView;
  /** The platform's country (STRIPE_PLATFORM_COUNTRY): the country preselected for onboarding. */
  platformCountry: string;
  /** The settlement currency every amount is in (lowercase ISO code). */
  currency: string;
  balance: PayoutBalance;
  transfers: PayoutTransferView[];
  /** In test mode: what the creator's test payout account holds (transfers less reversals); null otherwise. */
  testAccountBalance: string | null;
}

/** A creator's payout account and balance (GET /api/admin/payouts and the admin's Payouts section). */
export interface AdminPayoutRow extends PayoutBalance {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  account: { status: PayoutAccountView["status"] };
}
