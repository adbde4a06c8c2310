import type { DB } from "~/infra/db.server";
import type { PayoutPlatform, PayoutProvider } from "~/infra/payouts/payout-provider.server";
import { testAccountBalanceCents } from "~/infra/payouts/test-payouts.server";
import { centsToPriceString } from "~/lib/money";
import type { SalesScope } from "~/features/payouts/ledger/earnings.server";
import {
  creatorBalance,
  creatorTransfers,
  payoutsByCreator,
  type BalanceCents,
} from "~/features/payouts/ledger/balances.server";
import { payoutAccountOf } from "~/features/payouts/transfers/payout-accounts.server";
import type {
  AdminPayoutRow,
  PayoutAccountView,
  PayoutBalance,
  PayoutsOverview,
} from "~/features/payouts/types";

/** What the payout views read: the database, the configured payout provider, the platform, and whether test sales count. */
export interface PayoutViewDeps {
  db: DB;
  provider: PayoutProvider;
  platform: PayoutPlatform;
  scope: SalesScope;
}

/** A balance in dollar strings. */
export function balanceOf(cents: BalanceCents): PayoutBalance {
  return {
    earned: centsToPriceString(cents.earned),
    owed: centsToPriceString(cents.owed),
    transferred: centsToPriceString(cents.transferred),
    held: centsToPriceString(cents.held),
    reversed: centsToPriceString(cents.reversed),
  };
}

/** A creator's account at the configured provider: as screens show it, and its row (none before setup). */
export async function payoutAccountWithRow(
  deps: Pick<PayoutViewDeps, "db" | "provider" | "platform">,
  userId: string,
) {
  const { provider, platform } = deps;
  const row = await payoutAccountOf(deps.db, userId, provider.id);
  const country = row ? (row.country ?? platform.country) : null;
  const view: PayoutAccountView = {
    provider: provider.id,
    status: row ? row.status : "not_connected",
    payoutsEnabled: row?.payouts_enabled === 1,
    country,
    crossBorder: country !== null && country !== platform.country,
  };
  return { view, row };
}

/** The Payouts overview of a creator: the account, the balance and the transfers (and in test mode, what the test account holds). */
export async function payoutsOverview(
  deps: PayoutViewDeps,
  userId: string,
): Promise<PayoutsOverview> {
  const { db, platform } = deps;
  const [{ view: account, row }, balance, transfers] = await Promise.all([
    payoutAccountWithRow(deps, userId),
    creatorBalance(db, userId, deps.scope),
    creatorTransfers(db, userId),
  ]);
  // In test mode, what the creator's test payout account holds.
  const testRow = account.provider === "test" ? row : undefined;
  return {
    account,
    platformCountry: platform.country,
    currency: platform.currency,
    balance: balanceOf(balance),
    transfers: transfers.map((transfer) => ({
      id: transfer.id,
      title: transfer.title,
      saleReference: transfer.saleReference,
      amount: centsToPriceString(transfer.amountCents),
      reversed: centsToPriceString(transfer.reversedCents),
      status: transfer.status,
      createdAt: transfer.createdAt,
      testMode: transfer.testMode,
    })),
    testAccountBalance: testRow
      ? centsToPriceString(await testAccountBalanceCents(db, testRow.account_id))
      : null,
  };
}

/** Every creator's account state and balance at the configured provider, for the admin. */
export async function adminPayoutRows(
  deps: Pick<PayoutViewDeps, "db" | "provider" | "scope">,
): Promise<AdminPayoutRow[]> {
  const rows = await payoutsByCreator(deps.db, deps.scope, deps.provider.id);
  return rows.map((row) => ({
    userId: row.userId,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    account: { status: row.accountStatus ?? "not_connected" },
    ...balanceOf(row),
  }));
}
