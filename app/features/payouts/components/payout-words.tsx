import { formatAmount } from "~/lib/money";
import type {
  PayoutAccountView,
  PayoutBalance,
  PayoutTransferView,
} from "~/features/payouts/types";

/** The words and colours the Payouts card and page use for an account's state. */
export const ACCOUNT_STATES: Record<PayoutAccountView["status"], { label: string; tone: string }> =
  {
    not_connected: { label: "Not set up", tone: "bg-slate-100 text-slate-700" },
    pending: { label: "Setting up", tone: "bg-amber-100 text-amber-900" },
    active: { label: "Active", tone: "bg-emerald-100 text-emerald-800" },
    restricted: { label: "Needs attention", tone: "bg-red-100 text-red-800" },
  };

/** Who holds the account, for sentences. */
export function providerName(provider: PayoutAccountView["provider"]): string {
  return provider === "stripe" ? "Stripe" : "the test payout provider";
}

/** One or two sentences on what the account's state means for the creator's money. */
export function accountExplanation(
  account: Pick<PayoutAccountView, "provider" | "status">,
): string {
  switch (account.status) {
    case "not_connected":
      return "You have no payout account yet. Your share of each sale is kept for you as owed until you set one up.";
    case "pending":
      return "You started setting up your payout account but have not finished. Owed shares are sent as soon as setup is complete.";
    case "active":
      return "Your payout account is ready. Your share of each sale is sent to it once the sale is paid.";
    case "restricted":
      return `${capitalize(providerName(account.provider))} needs more information before it can send you money. Continue setup to give it; owed shares wait until then.`;
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An amount string from the server ("17", "8.50") for people, in the settlement currency: "$17.00", "€17.00". */
export function dollars(amount: string, currency = "usd"): string {
  const value = Number(amount);
  return Number.isFinite(value)
    ? formatAmount(value, currency)
    : `${amount} ${currency.toUpperCase()}`;
}

export const TRANSFER_STATUSES: Record<
  PayoutTransferView["status"],
  { label: string; tone: string }
> = {
  owed: { label: "Owed", tone: "bg-slate-100 text-slate-700" },
  transferred: { label: "Transferred", tone: "bg-emerald-100 text-emerald-800" },
  held: { label: "Held", tone: "bg-amber-100 text-amber-900" },
  reversed: { label: "Reversed", tone: "bg-red-100 text-red-800" },
  // Never a transfer (the buyer paid the creator's own Shopify store); listed for completeness of the type.
  elsewhere: { label: "Paid in your store", tone: "bg-slate-100 text-slate-700" },
};

/** The balance's five lines, in the order they are shown. */
export const BALANCE_LINES: { key: keyof PayoutBalance; label: string; hint: string }[] = [
  { key: "earned", label: "Earned", hint: "Your share of every sale" },
  { key: "owed", label: "Owed", hint: "Waiting for a ready payout account" },
  { key: "transferred", label: "Transferred", hint: "Sent to your payout account" },
  { key: "held", label: "Held", hint: "Paused while a payment is disputed" },
  { key: "reversed", label: "Reversed", hint: "Taken back by refunds" },
];

export function StateBadge({ status }: { status: PayoutAccountView["status"] }) {
  const state = ACCOUNT_STATES[status];
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${state.tone}`}
      data-testid="payout-account-state"
    >
      {state.label}
    </span>
  );
}

export function TestModeBadge() {
  return (
    <span
      className="inline-flex items-center rounded-full border border-amber-300 bg-amber-50 px-2 py-0.5 text-xs font-bold tracking-wide text-amber-900"
      data-testid="payouts-test-mode"
    >
      TEST MODE
    </span>
  );
}

/** The balance as a description list: Earned, Owed, Transferred, Held, Reversed. */
export function BalanceList({
  balance,
  compact = false,
  currency = "usd",
}: {
  balance: PayoutBalance;
  compact?: boolean;
  currency?: string;
}) {
  return (
    <dl
      className={`grid gap-3 ${compact ? "grid-cols-2 sm:grid-cols-5" : "grid-cols-2 sm:grid-cols-3 lg:grid-cols-5"}`}
      data-testid="payout-balance"
    >
      {BALANCE_LINES.map((line) => (
        <div key={line.key} className={compact ? "" : "rounded-lg border border-slate-200 p-3"}>
          <dt className="text-sm font-medium text-slate-600">{line.label}</dt>
          <dd
            className={`mt-1 font-bold text-slate-900 ${compact ? "text-lg" : "text-2xl"}`}
            data-testid={`balance-${line.key}`}
          >
            {dollars(balance[line.key], currency)}
          </dd>
          {compact ? null : <dd className="text-xs text-slate-500">{line.hint}</dd>}
        </div>
      ))}
    </dl>
  );
}
