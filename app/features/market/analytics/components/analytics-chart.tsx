import type { ReactNode } from "react";
import type { AnalyticsDay } from "~/features/market/analytics/analytics";
import { useCurrency } from "~/ui/currency";
import { formatMoney } from "~/lib/money";

/** An axis label in the settlement currency: "$5", "€2.5". */
function axisMoney(value: number, currency: string): string {
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: currency.toUpperCase(),
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  }).format(value);
}

/**
 * The per-day charts of /analytics, drawn as inline SVG on the server (no
 * script): activity (views, add-to-carts and sales as columns side by side on
 * one count axis) and earnings. Each chart is one image with an accessible
 * name; the numbers themselves are in the table beside it.
 */

const SERIES = [
  { key: "views", label: "Views", className: "fill-brand-600" },
  { key: "addsToCart", label: "Add-to-carts", className: "fill-amber-600" },
  { key: "sales", label: "Sales", className: "fill-emerald-700" },
] as const;
/** Shown only when the range has some: sales in the built-in test checkout that are not earnings here. */
const TEST_SALES = { key: "testSales", label: "Test sales", className: "fill-slate-500" } as const;

const HEIGHT = 160;
const TOP = 12;
const BOTTOM = 22;
const LEFT = 36;
const WIDTH = 720;

/** "26 Nov" */
export function shortDate(date: string): string {
  return new Date(`${date}T00:00:00.000Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  });
}

/** A round top for the axis: 1, 2, 5, 10, 20, 50, ... at least `max`. */
function niceTop(max: number): number {
  if (max <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  for (const factor of [1, 2, 5, 10]) if (factor * step >= max) return factor * step;
  return 10 * step;
}

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

function Axis({
  top,
  width,
  format,
}: {
  top: number;
  width: number;
  format: (value: number) => string;
}) {
  const plot = HEIGHT - TOP - BOTTOM;
  return (
    <g className="text-slate-500" aria-hidden="true">
      {[0, 0.5, 1].map((fraction) => {
        const y = TOP + plot * (1 - fraction);
        return (
          <g key={fraction}>
            <line x1={LEFT} x2={width} y1={y} y2={y} className="stroke-slate-200" strokeWidth={1} />
            <text x={LEFT - 4} y={y + 3} textAnchor="end" fontSize={11} className="fill-slate-500">
              {format(top * fraction)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

/** A label under every few columns, so a long range stays legible. */
function DateLabels({ days, slot }: { days: AnalyticsDay[]; slot: number }) {
  const every = days.length <= 7 ? 1 : days.length <= 30 ? 5 : 15;
  return (
    <g aria-hidden="true">
      {days.map((day, i) =>
        (days.length - 1 - i) % every === 0 ? (
          <text
            key={day.date}
            x={LEFT + i * slot + slot / 2}
            y={HEIGHT - 6}
            textAnchor="middle"
            fontSize={11}
            className="fill-slate-500"
          >
            {shortDate(day.date)}
          </text>
        ) : null,
      )}
    </g>
  );
}

export function ActivityChart({ days, rangeLabel }: { days: AnalyticsDay[]; rangeLabel: string }) {
  const testSales = days.reduce((sum, day) => sum + day.testSales, 0);
  const shown = testSales > 0 ? [...SERIES, TEST_SALES] : SERIES;
  const slot = (WIDTH - LEFT) / days.length;
  const column = (slot * 0.8) / shown.length;
  const top = niceTop(
    Math.max(...days.map((day) => Math.max(...shown.map((series) => day[series.key])))),
  );
  const plot = HEIGHT - TOP - BOTTOM;
  const totals = SERIES.map((series) => days.reduce((sum, day) => sum + day[series.key], 0));
  const name =
    `Views, add-to-carts and sales per day over ${rangeLabel}: ${plural(totals[0]!, "view", "views")}, ` +
    `${plural(totals[1]!, "add-to-cart", "add-to-carts")}, ${plural(totals[2]!, "sale", "sales")}` +
    `${testSales > 0 ? ` and ${plural(testSales, "test sale", "test sales")}` : ""} in all.`;
  return (
    <figure className="space-y-2">
      <ChartFrame
        name={name}
        testId="activity-chart"
        top={top}
        format={(value) => String(Math.round(value))}
        days={days}
        slot={slot}
      >
        {days.map((day, i) => (
          <g key={day.date} data-date={day.date}>
            {shown.map((series, s) => {
              const value = day[series.key];
              const height = (value / top) * plot;
              return (
                <rect
                  key={series.key}
                  data-series={series.key}
                  data-value={value}
                  x={LEFT + i * slot + slot * 0.1 + s * column}
                  y={TOP + plot - height}
                  width={column}
                  height={height}
                  className={series.className}
                >
                  <title>{`${shortDate(day.date)}: ${value} ${series.label.toLowerCase()}`}</title>
                </rect>
              );
            })}
          </g>
        ))}
      </ChartFrame>
      <figcaption className="flex flex-wrap gap-4 text-sm text-slate-700">
        {shown.map((series) => (
          <span key={series.key} className="inline-flex items-center gap-1.5">
            <svg width="12" height="12" aria-hidden="true">
              <rect width="12" height="12" rx="2" className={series.className} />
            </svg>
            {series.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** A chart's image, named by what it shows: its axis, the bars given as children, then the days under them. */
function ChartFrame({
  name,
  testId,
  top,
  format,
  days,
  slot,
  children,
}: {
  name: string;
  testId: string;
  top: number;
  format: (value: number) => string;
  days: AnalyticsDay[];
  slot: number;
  children: ReactNode;
}) {
  return (
    <svg
      role="img"
      aria-label={name}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="h-auto w-full"
      data-testid={testId}
    >
      <Axis top={top} width={WIDTH} format={format} />
      {children}
      <DateLabels days={days} slot={slot} />
    </svg>
  );
}

export function EarningsChart({ days, rangeLabel }: { days: AnalyticsDay[]; rangeLabel: string }) {
  const slot = (WIDTH - LEFT) / days.length;
  const cents = days.map((day) => Math.round(Number(day.earnings) * 100));
  const top = niceTop(Math.max(...cents) / 100);
  const plot = HEIGHT - TOP - BOTTOM;
  const total = cents.reduce((sum, value) => sum + value, 0);
  const currency = useCurrency();
  const name = `Earnings per day over ${rangeLabel}: ${formatMoney(total, currency)} in all.`;
  return (
    <ChartFrame
      name={name}
      testId="earnings-chart"
      top={top}
      format={(value) => axisMoney(value, currency)}
      days={days}
      slot={slot}
    >
      {days.map((day, i) => {
        const height = (cents[i]! / 100 / top) * plot;
        return (
          <rect
            key={day.date}
            data-date={day.date}
            data-value={day.earnings}
            x={LEFT + i * slot + slot * 0.15}
            y={TOP + plot - height}
            width={slot * 0.7}
            height={height}
            className="fill-emerald-700"
          >
            <title>{`${shortDate(day.date)}: ${formatMoney(cents[i]!, currency)}`}</title>
          </rect>
        );
      })}
    </ChartFrame>
  );
}
