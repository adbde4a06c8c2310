import type { AdminPayoutRow } from "~/features/admin/sales-types";
import { formatDollarString, PAYOUT_ACCOUNT_LABELS } from "~/features/admin/sales-types";
import { fullName } from "~/features/admin/types";
import { stackedTable as t } from "~/ui/stacked-table";
import { right, SectionCard, StackedTable } from "~/ui/data-table";

const CELL = `${t.cell} sm:align-middle`;

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
    <SectionCard
      headingId="payouts-heading"
      heading="Payouts"
      description={
        <p className="text-sm text-slate-600">
          Each creator&apos;s payout account and shares. Owed shares are sent once the account is
          active; held shares wait on a disputed order.
        </p>
      }
      testId="payouts-section"
    >
      {rows.length === 0 ? (
        <p className="px-4 py-10 text-center text-sm text-slate-600" data-testid="no-payouts">
          No creator has a sale or a payout account yet.
        </p>
      ) : (
        // Phones: one card per creator (every amount labelled); wider: a table scrolling sideways until it fits.
        <StackedTable
          label="Payouts table"
          minWidth="sm:min-w-[56rem]"
          caption="Payouts by creator"
          columns={["Creator", "Payout account", ...AMOUNTS.map(([, label]) => right(label))]}
          hintUntil="lg"
        >
          {rows.map((row) => (
            <tr
              key={row.userId}
              data-testid="payout-row"
              data-user-id={row.userId}
              className={t.row}
            >
              <td className={`${t.lead} sm:max-w-[18rem] sm:align-middle`}>
                <p className="truncate font-medium text-slate-900">{fullName(row)}</p>
                <p className="truncate text-xs text-slate-600" title={row.email}>
                  {row.email}
                </p>
              </td>
              <td className={CELL} data-label="Payout account">
                <span
                  className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${ACCOUNT_COLOURS[row.account.status] ?? ACCOUNT_COLOURS.not_connected}`}
                  data-testid="payout-account-status"
                >
                  {PAYOUT_ACCOUNT_LABELS[row.account.status] ?? row.account.status}
                </span>
              </td>
              {AMOUNTS.map(([key, label]) => (
                <td
                  key={key}
                  className={`${CELL} sm:text-right tabular-nums`}
                  data-label={label}
                  data-testid={`payout-${key}`}
                >
                  {formatDollarString(row[key])}
                </td>
              ))}
            </tr>
          ))}
        </StackedTable>
      )}
    </SectionCard>
  );
}
