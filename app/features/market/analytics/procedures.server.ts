import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { testSalesCount } from "~/infra/payments/select-provider.server";
import { recentSalesOf } from "~/features/market/analytics/creator-sales.server";
import { creatorMarketExport } from "~/features/market/creator-export.server";
import { salesCsvFile } from "~/features/market/analytics/sales-csv.server";
import { creatorAnalytics as analyticsOf } from "~/features/market/analytics/analytics.server";
import {
  ANALYTICS_RANGES,
  DEFAULT_ANALYTICS_RANGE,
  type AnalyticsRange,
} from "~/features/market/analytics/analytics";

/** What a creator sees of their own sales: the recent sales of the payment monitor, the analytics, and the market part of their data export. */

/** The payment monitor for a signed-in creator: their latest sales and each payment's state (no buyer details). */
export const myRecentSales = defineProcedure({
  name: "market.myRecentSales",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => recentSalesOf(ctx.db, user.id),
});

const RANGE_MESSAGE = `days must be ${ANALYTICS_RANGES.slice(0, -1).join(", ")} or ${ANALYTICS_RANGES[ANALYTICS_RANGES.length - 1]}`;

/** `days`: optional (the OpenAPI document says so, with its default); an empty value counts as left out. */
export const analyticsQuerySchema = z.object({
  days: z
    .preprocess(
      (value) =>
        value === "" || value === null || value === undefined
          ? String(DEFAULT_ANALYTICS_RANGE)
          : String(value),
      z
        .enum(
          ANALYTICS_RANGES.map((range) => String(range)) as [string, ...string[]],
          RANGE_MESSAGE,
        )
        .meta({
          description: `The range in days ending today (UTC): ${ANALYTICS_RANGES.join(", ")}; ${DEFAULT_ANALYTICS_RANGE} when left out.`,
          // The document shows the input side of the pipe: the default is said here.
          default: String(DEFAULT_ANALYTICS_RANGE),
        }),
    )
    .default(String(DEFAULT_ANALYTICS_RANGE)),
});

/**
 * GET /api/token-analytics and /analytics: the caller's views, add-to-carts,
 * sales, conversion and earnings per UTC day of the last 7, 30 or 90 days, and
 * per listing. Sales and earnings come from the ledger (the creator's share,
 * less refunds; on a production server without test sales).
 */
export const creatorAnalytics = defineProcedure({
  name: "creatorAnalytics",
  access: "user",
  input: analyticsQuerySchema,
  run: ({ input, user, ctx }) =>
    analyticsOf(ctx.db, user.id, Number(input.days) as AnalyticsRange, ctx.now, {
      includeTestSales: testSalesCount(ctx.config),
    }),
});

/**
 * GET /api/token-analytics/sales.csv and /analytics/sales.csv: the caller's
 * own sales as a CSV file, one row per UTC month, listing and licence (test
 * sales marked), with refunds, their share and the platform's fee.
 */
export const mySalesCsv = defineProcedure({
  name: "market.mySalesCsv",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => salesCsvFile(ctx.db, user.id, ctx.now),
});

/**
 * For the caller's data export (run by the export job): their listings, their
 * sales without the buyers' data, and the files of their listings.
 */
export const creatorMarketExportProcedure = defineProcedure({
  name: "creatorMarketExport",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => creatorMarketExport(ctx.db, user.id),
});
