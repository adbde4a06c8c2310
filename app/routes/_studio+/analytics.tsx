import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/product";
import { creatorAnalytics } from "~/features/market/analytics/procedures.server";
import {
  ANALYTICS_RANGES,
  DEFAULT_ANALYTICS_RANGE,
  isAnalyticsRange,
  listingOrder,
  sortListings,
  type AnalyticsRange,
} from "~/features/market/analytics/analytics";
import { AnalyticsPage } from "~/features/market/analytics/components/analytics-page";
import { loadProcedure } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";

export const meta: MetaFunction = () => [{ title: `Analytics | ${PRODUCT_NAME}` }];

/**
 * /analytics?days=7|30|90&sort=…&dir=…: the signed-in creator's numbers per
 * day and per listing. A range that does not exist shows the default one with
 * a message; an unknown sort is the default order.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const url = new URL(args.request.url);
  const asked = url.searchParams.get("days");
  const known = asked === null || asked === "" || isAnalyticsRange(asked);
  const range: AnalyticsRange =
    known && asked ? (Number(asked) as AnalyticsRange) : DEFAULT_ANALYTICS_RANGE;
  const notice = known
    ? null
    : `There is no ${asked.slice(0, 20)}-day range: choose ${ANALYTICS_RANGES.join(", ").replace(/, (\d+)$/, " or $1")} days. Showing the last ${DEFAULT_ANALYTICS_RANGE} days.`;
  const report = await loadProcedure(creatorAnalytics, args, { days: String(range) }, user);
  const order = listingOrder(url.searchParams.get("sort"), url.searchParams.get("dir"));
  return json(
    {
      range,
      notice,
      order,
      report: { ...report, listings: sortListings(report.listings, order.sort, order.dir) },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function Analytics() {
  const data = useLoaderData<typeof loader>();
  return <AnalyticsPage {...data} />;
}
