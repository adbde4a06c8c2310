import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { invoke } from "~/infra/procedure.server";
import { PRODUCT_NAME } from "~/lib/product";
import { startPayoutOnboarding } from "~/features/payouts/procedures.server";
import { callContext } from "~/web/request-context.server";
import { payoutFailure, requireCreator } from "~/routes/_studio+/payouts.server";

export const meta: MetaFunction = () => [{ title: `Payout setup | ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

/**
 * /payouts/onboard: where an expired or already used onboarding link leads.
 * Makes a fresh link and goes straight to it; if that fails, says so.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireCreator(args.request);
  try {
    const { url } = await invoke(startPayoutOnboarding, user, {}, callContext(args.request, args.context));
    return redirect(url, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    const { message, status } = payoutFailure(error, "Making a fresh onboarding link");
    return json({ message }, { status, headers: { "Cache-Control": "private, no-store" } });
  }
}

export default function PayoutsOnboard() {
  const { message } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-slate-900">Payout setup could not continue</h1>
      <p role="alert" className="mt-3 text-slate-600">
        {message}
      </p>
      <Link to="/payouts" className="btn-primary mt-8">
        Back to Payouts
      </Link>
    </section>
  );
}
