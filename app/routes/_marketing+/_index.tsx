import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import { DashboardPage } from "~/features/studio/components/dashboard-page";
import { LandingPage } from "~/features/landing/components/landing-page";
import { signedInDashboard } from "~/routes/_studio+/dashboard.server";
import { getWebUser } from "~/web/auth.server";
import { landingSamples } from "~/features/landing/procedures.server";
import { loadProcedure } from "~/web/remix-adapter.server";

/** Home: the dashboard when signed in, otherwise the landing page. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await getWebUser(args.request);
  if (!user) return json({ signedIn: false as const, samples: await loadProcedure(landingSamples, args, {}, null) });
  return signedInDashboard(args, user);
}

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const registrationOpen = useRouteLoaderData<typeof rootLoader>("root")?.registrationOpen ?? false;
  return data.signedIn ? (
    <DashboardPage data={data} />
  ) : (
    <LandingPage samples={data.samples} registrationOpen={registrationOpen} />
  );
}
