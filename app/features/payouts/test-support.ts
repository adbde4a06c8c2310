import type { PayoutsOverview } from "~/features/payouts/types";

/** Test-only fixtures shared by the payouts feature's and the Payouts page's tests. */

/** A US creator's payouts overview before any payout account: nothing earned unless `balance` says. */
export function newCreatorOverview(
  balance: Partial<PayoutsOverview["balance"]> = {},
): PayoutsOverview {
  return {
    account: {
      provider: "test",
      status: "not_connected",
      payoutsEnabled: false,
      country: null,
      crossBorder: false,
    },
    platformCountry: "US",
    currency: "usd",
    balance: { earned: "0", owed: "0", transferred: "0", held: "0", reversed: "0", ...balance },
    transfers: [],
    testAccountBalance: null,
  };
}
