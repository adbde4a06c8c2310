import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  DashboardPage,
  LoggedOutNotice,
} from "~/features/studio/workspace/components/dashboard-page";
import { PRODUCT_NAME } from "~/lib/product";
import { dashboardAction, dashboardLoader } from "~/routes/_studio+/dashboard.server";

export const meta: MetaFunction = () => [{ title: `Dashboard | ${PRODUCT_NAME}` }];

/** Signed-in creators; a signed-out visitor is told so and sent to sign in. */
export const loader = (args: LoaderFunctionArgs) => dashboardLoader(args);

/** Upload (multipart), stylize, optimize and delete, as plain form posts. */
export const action = (args: ActionFunctionArgs) => dashboardAction(args);

export default function Dashboard() {
  const data = useLoaderData<typeof loader>();
  return data.signedIn ? <DashboardPage data={data} /> : <LoggedOutNotice />;
}
