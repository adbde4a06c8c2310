import { Link } from "@remix-run/react";
import type { PayoutsOverview } from "~/features/payouts/types";
import {
  BalanceList,
  StateBadge,
  TestModeBadge,
  accountExplanation,
} from "~/features/payouts/components/payout-words";

/**
 * The dashboard's Payouts card: the payout account's state in words, the
 * balance, and the way to the Payouts page (to set payouts up, or manage them).
 */
export function PayoutsCard({
  payouts,
}: {
  payouts: Pick<PayoutsOverview, "account" | "balance"> &
    Partial<Pick<PayoutsOverview, "currency">>;
}) {
  const { account, balance } = payouts;
  const notSetUp = account.status === "not_connected";
  return (
    <section className="card p-4" aria-labelledby="payouts-card-title" data-testid="payouts-card">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="payouts-card-title" className="text-lg font-semibold text-slate-900">
            Payouts
          </h2>
          <StateBadge status={account.status} />
          {account.provider === "test" ? <TestModeBadge /> : null}
        </div>
        <Link to="/payouts" className={notSetUp ? "btn-primary" : "btn-secondary"}>
          {notSetUp ? "Set up payouts" : "Manage payouts"}
        </Link>
      </div>
      <p className="mt-2 text-sm text-slate-600">{accountExplanation(account)}</p>
      <div className="mt-4">
        <BalanceList balance={balance} compact currency={payouts.currency} />
      </div>
    </section>
  );
}
