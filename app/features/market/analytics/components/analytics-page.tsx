import type { ReactNode } from "react";
import { Link } from "@remix-run/react";
import { PageHeader } from "~/ui/page-header";
import {
  ANALYTICS_RANGES,
  SALES_CSV_PATH,
  conversionOf,
  formatConversion,
  type AnalyticsRange,
  type CreatorAnalytics,
  type ListingSort,
  type SortDirection,
} from "~/features/market/analytics/analytics";
import {
  ActivityChart,
  EarningsChart,
  shortDate,
} from "~/features/market/analytics/components/analytics-chart";
import { SalesTableSection } from "~/features/market/analytics/components/sales-table-section";
import { useCurrency } from "~/ui/currency";
import { formatAmount, formatMoney } from "~/lib/money";

export interface AnalyticsPageProps {
  range: AnalyticsRange;
  /** Said when the address asked for a range that does not exist. */
  notice: string | null;
  report: CreatorAnalytics;
  order: { sort: ListingSort; dir: SortDirection };
}

const COLUMNS: { sort: ListingSort; label: string; numeric: boolean }[] = [
  { sort: "title", label: "Listing", numeric: false },
  { sort: "views", label: "Views", numeric: true },
  { sort: "saves", label: "Saves", numeric: true },
  { sort: "sales", label: "Sales", numeric: true },
  { sort: "conversion", label: "Conversion", numeric: true },
  { sort: "earnings", label: "Earnings", numeric: true },
];

function rangeHref(range: number, order: AnalyticsPageProps["order"]) {
  return `?days=${range}&sort=${order.sort}&dir=${order.dir}`;
}

/**
 * /analytics: a creator's views, add-to-carts, saves, sales, conversion and
 * earnings per day, and per listing; their followers (a count); the bundles
 * sold; and the link
 * to the monthly sales CSV. Works without JavaScript.
 */
export function AnalyticsPage({ range, notice, report, order }: AnalyticsPageProps) {
  const { days, listings, followers, bundles, discountCodes } = report;
  const currency = useCurrency();
  const dollars = (amount: string) => formatAmount(Number(amount), currency);
  const rangeLabel = `the last ${range} days`;
  const totals = {
    views: days.reduce((sum, day) => sum + day.views, 0),
    addsToCart: days.reduce((sum, day) => sum + day.addsToCart, 0),
    saves: days.reduce((sum, day) => sum + day.saves, 0),
    sales: days.reduce((sum, day) => sum + day.sales, 0),
    cents: days.reduce((sum, day) => sum + Math.round(Number(day.earnings) * 100), 0),
    testSales: days.reduce((sum, day) => sum + day.testSales, 0),
  };
  const cards: { label: string; value: string; note?: string }[] = [
    { label: "Views", value: String(totals.views) },
    { label: "Add-to-carts", value: String(totals.addsToCart) },
    { label: "Saves", value: String(totals.saves) },
    { label: "Sales", value: String(totals.sales) },
    { label: "Conversion", value: formatConversion(conversionOf(totals.sales, totals.views)) },
    { label: "Earnings", value: formatMoney(totals.cents, currency) },
    {
      label: "Followers",
      value: String(followers.confirmed),
      note: `${followers.newInRange} new in ${rangeLabel}`,
    },
    ...(totals.testSales > 0
      ? [{ label: "Test sales (no money moved)", value: String(totals.testSales) }]
      : []),
  ];
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8">
      <PageHeader
        title="Analytics"
        subtitle="How often your listings were seen, saved, added to carts and sold, day by day (UTC). A visitor counts once a day."
        back={{ to: "/dashboard", label: "Back to Dashboard", look: "btn-ghost" }}
      />
      {notice ? (
        <p
          role="alert"
          className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          data-testid="analytics-notice"
        >
          {notice}
        </p>
      ) : null}
      <nav aria-label="Range" className="flex flex-wrap gap-2">
        {ANALYTICS_RANGES.map((option) => (
          <Link
            key={option}
            to={rangeHref(option, order)}
            aria-current={option === range ? "page" : undefined}
            className={option === range ? "btn-primary" : "btn-secondary"}
          >
            {option} days
          </Link>
        ))}
      </nav>
      <dl
        className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4"
        data-testid="analytics-totals"
      >
        {cards.map((card) => (
          <div key={card.label} className="card p-4">
            <dt className="text-sm font-medium text-slate-600">{card.label}</dt>
            <dd className="mt-1 text-2xl font-bold text-slate-900">{card.value}</dd>
            {card.note ? <dd className="mt-1 text-sm text-slate-600">{card.note}</dd> : null}
          </div>
        ))}
      </dl>
      {totals.testSales > 0 ? (
        <p className="text-sm text-slate-700" data-testid="analytics-test-sales">
          Test sales were made in the built-in test checkout: no money moved, so they are not in
          your sales or earnings.
        </p>
      ) : null}

      <section className="card space-y-4 p-6" aria-labelledby="analytics-days-title">
        <h2 id="analytics-days-title" className="text-xl font-semibold text-slate-900">
          Per day, {rangeLabel}
        </h2>
        <div className="grid gap-6 lg:grid-cols-2">
          <div>
            <h3 className="mb-2 text-sm font-semibold text-slate-700">
              Views, add-to-carts and sales
            </h3>
            <ActivityChart days={days} rangeLabel={rangeLabel} />
          </div>
          <div>
            <h3 className="mb-2 text-sm font-semibold text-slate-700">Earnings</h3>
            <EarningsChart days={days} rangeLabel={rangeLabel} />
          </div>
        </div>
        <div
          className="relative max-h-96 overflow-auto"
          tabIndex={0}
          role="region"
          aria-labelledby="analytics-days-caption"
        >
          <table
            className="w-full whitespace-nowrap text-left text-sm"
            data-testid="analytics-days"
          >
            <caption
              id="analytics-days-caption"
              className="mb-2 text-left text-sm font-semibold text-slate-700"
            >
              The numbers per day (UTC), newest first
            </caption>
            <thead>
              <tr className="border-b border-slate-200 text-slate-600">
                <ColumnHead className="py-2 pr-4 font-medium">Day</ColumnHead>
                <ColumnHead>Views</ColumnHead>
                <ColumnHead>Add-to-carts</ColumnHead>
                <ColumnHead>Saves</ColumnHead>
                <ColumnHead>Sales</ColumnHead>
                <ColumnHead>Conversion</ColumnHead>
                <ColumnHead className="py-2 text-right font-medium">Earnings</ColumnHead>
                {totals.testSales > 0 ? (
                  <ColumnHead className="py-2 pl-4 text-right font-medium">Test sales</ColumnHead>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {[...days].reverse().map((day) => (
                <tr key={day.date} className="border-b border-slate-100" data-date={day.date}>
                  <th scope="row" className="py-1.5 pr-4 font-normal text-slate-900">
                    <time dateTime={day.date}>{shortDate(day.date)}</time>
                  </th>
                  <NumberCell>{day.views}</NumberCell>
                  <NumberCell>{day.addsToCart}</NumberCell>
                  <NumberCell>{day.saves}</NumberCell>
                  <NumberCell>{day.sales}</NumberCell>
                  <NumberCell>{formatConversion(day.conversion)}</NumberCell>
                  <NumberCell className="py-1.5 text-right tabular-nums">
                    {dollars(day.earnings)}
                  </NumberCell>
                  {totals.testSales > 0 ? (
                    <NumberCell className="py-1.5 pl-4 text-right tabular-nums">
                      {day.testSales}
                    </NumberCell>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="card p-6" aria-labelledby="analytics-listings-title">
        <h2 id="analytics-listings-title" className="text-xl font-semibold text-slate-900">
          Per listing, {rangeLabel}
        </h2>
        {listings.length === 0 ? (
          <p className="mt-2 text-slate-600">
            Nothing listed yet.{" "}
            <Link to="/dashboard" className="text-brand-700 underline">
              List an image from the dashboard
            </Link>
            .
          </p>
        ) : (
          <div className="relative mt-3 overflow-x-auto">
            <table
              className="w-full whitespace-nowrap text-left text-sm"
              data-testid="analytics-listings"
            >
              <thead>
                <tr className="border-b border-slate-200 text-slate-600">
                  {COLUMNS.map((column) => {
                    const sorted = order.sort === column.sort;
                    const next: SortDirection = sorted
                      ? order.dir === "asc"
                        ? "desc"
                        : "asc"
                      : column.numeric
                        ? "desc"
                        : "asc";
                    return (
                      <th
                        key={column.sort}
                        scope="col"
                        aria-sort={
                          sorted ? (order.dir === "asc" ? "ascending" : "descending") : "none"
                        }
                        className={`py-2 pr-4 font-medium ${column.numeric ? "text-right" : ""}`}
                      >
                        <Link
                          to={`?days=${range}&sort=${column.sort}&dir=${next}`}
                          className="text-brand-700 underline-offset-2 hover:underline"
                        >
                          {column.label}
                          <span className="sr-only">
                            , sort {next === "asc" ? "ascending" : "descending"}
                          </span>
                          {sorted ? (
                            <span aria-hidden="true"> {order.dir === "asc" ? "▲" : "▼"}</span>
                          ) : null}
                        </Link>
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {listings.map((listing) => (
                  <tr
                    key={listing.listingId}
                    className="border-b border-slate-100"
                    data-listing-id={listing.listingId}
                  >
                    <th
                      scope="row"
                      className="min-w-[8rem] whitespace-normal py-1.5 pr-4 font-normal text-slate-900"
                    >
                      {listing.title}
                    </th>
                    <NumberCell>{listing.views}</NumberCell>
                    <NumberCell>{listing.saves}</NumberCell>
                    <NumberCell>{listing.sales}</NumberCell>
                    <NumberCell>{formatConversion(listing.conversion)}</NumberCell>
                    <NumberCell>{dollars(listing.earnings)}</NumberCell>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {bundles.length > 0 ? (
        <SalesTableSection
          id="analytics-bundles-title"
          title={`Bundles sold, ${rangeLabel}`}
          note="Their images' sales and earnings are in the listings above too."
          testId="analytics-bundles"
          columns={["Bundle", "Sales", "Earnings"]}
          nameClassName="min-w-[8rem] whitespace-normal wrap-anywhere"
          rows={bundles.map((bundle) => ({
            key: bundle.bundleId,
            name: (
              <Link to={`/bundles/${bundle.bundleId}`} className="text-brand-700 underline">
                {bundle.title}
              </Link>
            ),
            figures: [bundle.sales, dollars(bundle.earnings)],
          }))}
        />
      ) : null}

      {discountCodes.length > 0 ? (
        <SalesTableSection
          id="analytics-codes-title"
          title={`Discount codes used, ${rangeLabel}`}
          note={
            <>
              Revenue is what buyers paid for your images after the code, less refunds.{" "}
              <Link to="/discounts" className="text-brand-700 underline">
                Your codes
              </Link>
            </>
          }
          testId="analytics-discount-codes"
          columns={["Code", "Orders", "Taken off", "Revenue", "Earnings"]}
          nameClassName="font-mono wrap-anywhere"
          rows={discountCodes.map((code) => ({
            key: code.discountCodeId,
            name: code.code,
            figures: [
              code.orders,
              dollars(code.discount),
              dollars(code.revenue),
              dollars(code.earnings),
            ],
          }))}
        />
      ) : null}

      <section className="card space-y-2 p-6" aria-labelledby="analytics-sales-csv-title">
        <h2 id="analytics-sales-csv-title" className="text-xl font-semibold text-slate-900">
          Monthly sales
        </h2>
        <p className="text-slate-600">
          Every sale of yours, one row per month (UTC) and listing, with refunds and your share.
          Test sales are marked.
        </p>
        {/*
          A plain link (not a client-side Link): the answer is an attachment, so the file
          downloads and the page stays, with or without JavaScript. No `download` attribute: a
          session that ended meanwhile gets the sign-in page, not a file of it.
        */}
        <a
          href={SALES_CSV_PATH}
          className="btn-secondary inline-flex"
          data-testid="analytics-sales-csv"
        >
          Download sales (CSV)
        </a>
      </section>
    </div>
  );
}

/** A column heading of the per-day table: a number's, set right, unless `className` says otherwise. */
function ColumnHead({
  className = "py-2 pr-4 text-right font-medium",
  children,
}: {
  className?: string;
  children: ReactNode;
}) {
  return (
    <th scope="col" className={className}>
      {children}
    </th>
  );
}

/** A number in the tables, set right in tabular figures. */
function NumberCell({
  className = "py-1.5 pr-4 text-right tabular-nums",
  children,
}: {
  className?: string;
  children: ReactNode;
}) {
  return <td className={className}>{children}</td>;
}
