import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import { LandingPage } from "~/features/landing/components/landing-page";
import { landingSamples } from "~/features/landing/procedures.server";
import { loadProcedure } from "~/web/remix-adapter.server";

/** /landing: the landing page for everyone (the logo's link target). */
export async function loader(args: LoaderFunctionArgs) {
  return json({ samples: await loadProcedure(landingSamples, args, {}, null) });
}

export default function Landing() {
  const { samples } = useLoaderData<typeof loader>();
  const registrationOpen = useRouteLoaderData<typeof rootLoader>("root")?.registrationOpen ?? false;
  return <LandingPage samples={samples} registrationOpen={registrationOpen} />;
}
