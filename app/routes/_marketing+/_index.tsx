import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import { lazy, Suspense } from "react";
import { ServerDashboardPage } from "./home-dashboard.server";
import { LandingPage } from "~/features/landing/components/landing-page";
import { signedInDashboard } from "~/routes/_studio+/dashboard.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { landingSamples } from "~/features/landing/procedures/landing.server";
import { betaStatus } from "~/features/accounts/registration/waitlist.procedures.server";
import { loadProcedure } from "~/web/screen-action.server";

/**
 * The dashboard: rendered in full by the server; in the browser its code is a
 * chunk of its own, loaded only when a signed-in page hydrates, so the landing
 * page ships none of it. Until the chunk arrives, the server's HTML stays as it is.
 */
const DashboardPage =
  ServerDashboardPage ??
  lazy(() =>
    import("~/features/studio/workspace/components/dashboard-page").then((module) => ({
      default: module.DashboardPage,
    })),
  );

/** Home: the dashboard when signed in, otherwise the landing page. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "optional" });
  if (!user)
    return json({
      signedIn: false as const,
      samples: await loadProcedure(landingSamples, args, {}, null),
      beta: await loadProcedure(betaStatus, args, {}, null),
      renderedAt: new Date().toISOString(),
    });
  return signedInDashboard(args, user);
}

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const registrationOpen = useRouteLoaderData<typeof rootLoader>("root")?.registrationOpen ?? false;
  return data.signedIn ? (
    <Suspense fallback={null}>
      <DashboardPage data={data} />
    </Suspense>
  ) : (
    <LandingPage
      samples={data.samples}
      registrationOpen={registrationOpen}
      beta={data.beta}
      renderedAt={data.renderedAt}
    />
  );
}
