import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import { LandingPage } from "~/features/landing/components/landing-page";
import { landingSamples } from "~/features/landing/procedures/landing.server";
import { betaStatus } from "~/features/accounts/registration/waitlist.procedures.server";
import { loadProcedure } from "~/web/screen-action.server";

/** /landing: the landing page for everyone (the logo's link target). */
export async function loader(args: LoaderFunctionArgs) {
  const [samples, beta] = await Promise.all([
    loadProcedure(landingSamples, args, {}, null),
    loadProcedure(betaStatus, args, {}, null),
  ]);
  return json({ samples, beta, renderedAt: new Date().toISOString() });
}

export default function Landing() {
  const { samples, beta, renderedAt } = useLoaderData<typeof loader>();
  const registrationOpen = useRouteLoaderData<typeof rootLoader>("root")?.registrationOpen ?? false;
  return (
    <LandingPage
      samples={samples}
      registrationOpen={registrationOpen}
      beta={beta}
      renderedAt={renderedAt}
    />
  );
}
