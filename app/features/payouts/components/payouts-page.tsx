import { Form } from "@remix-run/react";
import type { FlashMessage } from "~/lib/flash";
import { PageHeader } from "~/ui/page-header";
import { stackedTable as t } from "~/ui/stacked-table";
import { right, StackedTable } from "~/ui/data-table";
import { CREATOR_SHARE_PERCENT } from "~/features/payouts/types";
import type { PayoutsOverview, PayoutTransferView } from "~/features/payouts/types";
import { countryChoices, countryName } from "~/lib/payout-countries";
import {
  BalanceList,
  StateBadge,
  TestModeBadge,
  TRANSFER_STATUSES,
  accountExplanation,
  dollars,
} from "~/features/payouts/components/payout-words";
import { AlertMessage } from "~/ui/alert-message";

/**
 * The body of /payouts: the payout account and what to do next, the balance,
 * every transfer, and what owed, held and reversed mean. Every action is a
 * plain form post answered with a redirect, so it all works without JavaScript.
 */
export function PayoutsPage({
  overview,
  notice = null,
  error = null,
}: {
  overview: PayoutsOverview;
  /** What happened on the way here (back from onboarding). */
  notice?: FlashMessage | null;
  /** Why the last action failed. */
  error?: string | null;
}) {
  const { account, balance, transfers } = overview;
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-8" data-testid="payouts-page">
      <PageHeader
        title="Payouts"
        subtitle={`You keep ${CREATOR_SHARE_PERCENT}% of each sale. This is where your share goes.`}
        back={{ to: "/dashboard", label: "Back to Dashboard", look: "btn-ghost" }}
      />
      {notice ? <Notice message={notice} /> : null}
      {error ? <AlertMessage testId="payouts-error">{error}</AlertMessage> : null}
      {account.provider === "test" ? (
        <TestModeNotice
          testAccountBalance={overview.testAccountBalance}
          currency={overview.currency}
        />
      ) : null}
      <AccountSection account={account} platformCountry={overview.platformCountry} />
      <section className="card p-6" aria-labelledby="payouts-balance-title">
        <h2 id="payouts-balance-title" className="text-xl font-semibold text-slate-900">
          Balance
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Earned is everything you are owed, have been sent, or is held.
        </p>
        <div className="mt-4">
          <BalanceList balance={balance} currency={overview.currency} />
        </div>
      </section>
      <TransfersSection transfers={transfers} currency={overview.currency} />
      <section className="card p-6" aria-labelledby="payouts-terms-title">
        <h2 id="payouts-terms-title" className="text-xl font-semibold text-slate-900">
          How your share moves
        </h2>
        <dl className="mt-3 space-y-3 text-sm text-slate-700">
          <div>
            <dt className="font-semibold text-slate-900">Owed</dt>
            <dd>
              Your share of a paid sale that has not been sent yet, because your payout account is
              not ready. It is sent as soon as it is.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">Held</dt>
            <dd>
              The buyer disputed the payment with their bank. Your share stays where it is until the
              dispute is settled: if it is won, it goes on as before; if it is lost, it is taken
              back.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">Reversed</dt>
            <dd>
              The sale was refunded, so your share of the refunded amount was taken back (or never
              sent).
            </dd>
          </div>
        </dl>
      </section>
    </div>
  );
}

function Notice({ message }: { message: FlashMessage }) {
  const tone =
    message.kind === "error"
      ? "border-red-200 bg-red-50 text-red-800"
      : message.kind === "success"
        ? "border-emerald-200 bg-emerald-50 text-emerald-900"
        : "border-slate-200 bg-slate-50 text-slate-800";
  return (
    <div
      role={message.kind === "error" ? "alert" : "status"}
      className={`rounded-lg border p-3 text-sm ${tone}`}
      data-testid="payouts-notice"
    >
      <p className="font-semibold">{message.title}</p>
      {message.description ? <p className="mt-0.5">{message.description}</p> : null}
    </div>
  );
}

function TestModeNotice({
  testAccountBalance,
  currency,
}: {
  testAccountBalance: string | null;
  currency: string;
}) {
  return (
    <div
      className="rounded-xl border-2 border-dashed border-amber-400 bg-amber-50 p-4 text-amber-900"
      role="note"
      data-testid="payouts-test-notice"
    >
      <p className="text-lg font-bold tracking-wide">TEST MODE</p>
      <p className="text-sm">
        No Stripe account is configured on this server, so your share of each sale goes to a
        built-in test payout account. No money moves: transfers and refunds are only recorded.
      </p>
      <p className="mt-2 text-sm font-medium" data-testid="test-account-balance">
        {testAccountBalance === null
          ? "Set up payouts to open your test payout account."
          : `Your test payout account holds ${dollars(testAccountBalance, currency)}.`}
      </p>
    </div>
  );
}

function AccountSection({
  account,
  platformCountry,
}: {
  account: PayoutsOverview["account"];
  platformCountry: string;
}) {
  const canContinue = account.status === "pending" || account.status === "restricted";
  const stripeDashboard =
    account.provider === "stripe" &&
    (account.status === "active" || account.status === "restricted");
  return (
    <section
      className="card p-6"
      aria-labelledby="payouts-account-title"
      data-testid="payout-account"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="payouts-account-title" className="text-xl font-semibold text-slate-900">
          Payout account
        </h2>
        <StateBadge status={account.status} />
        {account.provider === "test" ? <TestModeBadge /> : null}
      </div>
      <p className="mt-2 text-slate-700" data-testid="payout-account-explanation">
        {accountExplanation(account)}
      </p>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-600">Provider</dt>
        <dd className="text-slate-900">
          {account.provider === "stripe" ? "Stripe Connect" : "Test payouts (built in)"}
        </dd>
        <dt className="font-medium text-slate-600">Withdrawals to your bank</dt>
        <dd className="text-slate-900">{account.payoutsEnabled ? "Enabled" : "Not enabled yet"}</dd>
        {account.country ? (
          <>
            <dt className="font-medium text-slate-600">Country</dt>
            <dd className="text-slate-900" data-testid="payout-account-country">
              {countryName(account.country)}
            </dd>
          </>
        ) : null}
      </dl>
      {account.crossBorder ? (
        <p className="mt-3 text-sm text-slate-600" data-testid="payout-cross-border">
          Your account is outside {countryName(platformCountry)}, where this marketplace is based:
          Stripe pays you under its recipient agreement, and each share reaches your Stripe balance
          24 hours after it is sent.
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-2">
        {account.status === "not_connected" || canContinue ? (
          <Form method="post" action="/payouts" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="onboard" />
            {account.status === "not_connected" ? (
              <label className="flex flex-col text-sm font-medium text-slate-700">
                Country you live in (where your bank account is)
                <select
                  name="country"
                  defaultValue={platformCountry}
                  className="field-input mt-1"
                  data-testid="payouts-country"
                  required
                >
                  {countryChoices().map((choice) => (
                    <option key={choice.code} value={choice.code}>
                      {choice.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <button type="submit" className="btn-primary" data-testid="payouts-onboard">
              {account.status === "not_connected" ? "Set up payouts" : "Continue setup"}
            </button>
          </Form>
        ) : null}
        {stripeDashboard ? (
          <Form method="post" action="/payouts">
            <input type="hidden" name="intent" value="dashboard" />
            <button type="submit" className="btn-secondary" data-testid="payouts-dashboard">
              Open Stripe dashboard
            </button>
          </Form>
        ) : null}
      </div>
    </section>
  );
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "N/A";
  return date.toLocaleDateString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}

const CELL = `${t.cell} sm:align-top`;

/**
 * Every transfer, newest first, each named by the image sold (the sale
 * reference is a small second line). Phones: one card per transfer, every
 * value labelled; wider: a table scrolling sideways inside a focusable region
 * until it fits.
 */
function TransfersSection({
  transfers,
  currency,
}: {
  transfers: PayoutTransferView[];
  currency: string;
}) {
  return (
    <section className="card overflow-hidden" aria-labelledby="payouts-transfers-title">
      <h2 id="payouts-transfers-title" className="px-6 pt-6 text-xl font-semibold text-slate-900">
        Transfers
      </h2>
      {transfers.length === 0 ? (
        <p className="px-6 pt-3 pb-6 text-sm text-slate-600" data-testid="transfers-empty">
          No transfers yet. Each share sent to your payout account will be listed here.
        </p>
      ) : (
        <StackedTable
          label="Transfers to your payout account"
          minWidth="sm:min-w-[44rem]"
          caption="Transfers to your payout account, newest first"
          columns={["Image sold", right("Amount"), right("Reversed"), "Status", "Date", "Transfer"]}
          regionClassName="mt-4 border-t border-slate-200"
          testId="transfers-table"
          hintUntil="lg"
        >
          {transfers.map((transfer) => {
            const status = TRANSFER_STATUSES[transfer.status];
            return (
              <tr key={transfer.id} data-testid="transfer-row" className={t.row}>
                <td className={`${t.lead} sm:max-w-[18rem] sm:align-top`}>
                  <p
                    className="font-medium [overflow-wrap:anywhere] text-slate-900"
                    data-testid="transfer-title"
                  >
                    {transfer.title}
                    {transfer.testMode ? (
                      <span className="ml-2 text-xs font-semibold text-amber-800">Test</span>
                    ) : null}
                  </p>
                  <p
                    className="mt-0.5 text-xs break-all text-slate-500"
                    data-testid="transfer-sale-reference"
                  >
                    Sale ref. <code>{transfer.saleReference}</code>
                  </p>
                </td>
                <td
                  className={`${CELL} sm:text-right font-medium text-slate-900 tabular-nums`}
                  data-label="Amount"
                >
                  {dollars(transfer.amount, currency)}
                </td>
                <td className={`${CELL} sm:text-right tabular-nums`} data-label="Reversed">
                  {dollars(transfer.reversed, currency)}
                </td>
                <td className={CELL} data-label="Status">
                  <span
                    className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${status.tone}`}
                  >
                    {status.label}
                  </span>
                </td>
                <td className={CELL} data-label="Date">
                  {formatDate(transfer.createdAt)}
                </td>
                <td className={CELL} data-label="Transfer">
                  <code className="min-w-0 text-xs break-all text-slate-500">{transfer.id}</code>
                </td>
              </tr>
            );
          })}
        </StackedTable>
      )}
    </section>
  );
}
