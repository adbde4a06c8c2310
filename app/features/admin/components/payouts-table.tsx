import type { AdminPayoutRow } from "~/features/admin/sales-types";
import { formatDollarString, PAYOUT_ACCOUNT_LABELS } from "~/features/admin/sales-types";
import { fullName } from "~/features/admin/types";

const HEAD = "px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase";
const CELL = "px-4 py-3 align-middle text-sm text-slate-700";

const ACCOUNT_COLOURS: Record<string, string | undefined> = {
  not_connected: "bg-slate-100 text-slate-700",
  pending: "bg-amber-100 text-amber-900",
  active: "bg-emerald-100 text-emerald-800",
  restricted: "bg-red-100 text-red-800",
};

const AMOUNTS = [
  ["earned", "Earned"],
  ["owed", "Owed"],
  ["transferred", "Transferred"],
  ["held", "Held"],
  ["reversed", "Reversed"],
] as const;

/**
 * The Admin Portal's Payouts section: each creator's payout account and what
 * their shares came to: earned = owed + transferred + held; reversed is what
 * refunds took back.
 */
export function PayoutsTable({ rows }: { rows: AdminPayoutRow[] }) {
  return (
    <section aria-labelledby="payouts-heading" className="card mt-8 overflow-hidden" data-testid="payouts-section">
      <div className="border-b border-slate-200 p-5">
        <h2 id="payouts-heading" className="text-lg font-semibold text-slate-900">
          Payouts
        </h2>
        <p className="text-sm text-slate-600">
          Each creator&apos;s payout account and shares. Owed shares are sent once the account is active; held shares wait on a disputed order.
        </p>
      </div>
      {rows.length === 0 ? (
        <p className="px-4 py-10 text-center text-sm text-slate-600" data-testid="no-payouts">
          No creator has a sale or a payout account yet.
        </p>
      ) : (
        <div className="overflow-x-auto" role="region" aria-label="Payouts" tabIndex={0}>
          <table className="w-full min-w-[56rem] divide-y divide-slate-200">
            <caption className="sr-only">Payouts by creator</caption>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className={HEAD}>Creator</th>
                <th scope="col" className={HEAD}>Payout account</th>
                {AMOUNTS.map(([key, label]) => (
                  <th key={key} scope="col" className={`${HEAD} text-right`}>
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 bg-white">
              {rows.map((row) => (
                <tr key={row.userId} data-testid="payout-row" data-user-id={row.userId} className="hover:bg-slate-50/70">
                  <td className={`${CELL} max-w-[18rem]`}>
                    <p className="truncate font-medium text-slate-900">{fullName(row)}</p>
                    <p className="truncate text-xs text-slate-600">{row.email}</p>
                  </td>
                  <td className={CELL}>
                    <span
                      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${ACCOUNT_COLOURS[row.account.status] ?? ACCOUNT_COLOURS.not_connected}`}
                      data-testid="payout-account-status"
                    >
                      {PAYOUT_ACCOUNT_LABELS[row.account.status] ?? row.account.status}
                    </span>
                  </td>
                  {AMOUNTS.map(([key]) => (
                    <td key={key} className={`${CELL} text-right tabular-nums`} data-testid={`payout-${key}`}>
                      {formatDollarString(row[key])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
