import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LandingPage } from "~/features/landing/components/landing-page";
import { landingSamples } from "~/features/landing/procedures.server";
import { loadProcedure } from "~/web/remix-adapter.server";

/** /landing: the landing page for everyone (the logo's link target). */
export async function loader(args: LoaderFunctionArgs) {
  return json({ samples: await loadProcedure(landingSamples, args, {}, null) });
}

export default function Landing() {
  const { samples } = useLoaderData<typeof loader>();
  return <LandingPage samples={samples} />;
}
