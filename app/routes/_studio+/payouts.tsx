import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { invoke } from "~/infra/procedure.server";
import type { FlashMessage } from "~/lib/flash";
import { PRODUCT_NAME } from "~/lib/product";
import { creatorPayouts } from "~/features/payouts/procedures/earnings.server";
import { payoutDashboardLink, refreshMyPayoutAccount, startPayoutOnboarding } from "~/features/payouts/procedures/accounts-and-onboarding.server";
import { PayoutsPage } from "~/features/payouts/components/payouts-page";
import { readFormData } from "~/web/http.server";
import { loadProcedure } from "~/web/remix-adapter.server";
import { callContext } from "~/web/request-context.server";
import { isCrossSiteMutation } from "~/web/same-origin.server";
import { failedPost, payoutFailure, requireCreator, returnNotice } from "~/routes/_studio+/payouts.server";

export const meta: MetaFunction = () => [{ title: `Payouts | ${PRODUCT_NAME}` }];

/**
 * /payouts: the creator's payout account, balance and transfers. Coming back
 * from onboarding (?onboarding=return), the account's state is asked for
 * first, and the page says what it is now.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireCreator(args.request);
  let notice: FlashMessage | null = null;
  if (new URL(args.request.url).searchParams.get("onboarding") === "return") {
    try {
      notice = returnNotice(await invoke(refreshMyPayoutAccount, user, {}, callContext(args.request, args.context)));
    } catch (error) {
      notice = { kind: "error", title: "Could not update your payout account", description: payoutFailure(error, "Refreshing a payout account").message };
    }
  }
  const overview = await loadProcedure(creatorPayouts, args, {}, user);
  return json({ overview, notice }, { headers: { "Cache-Control": "private, no-store" } });
}

/** intent=onboard: to the provider's onboarding; intent=dashboard: to the creator's Stripe dashboard. */
export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const user = await requireCreator(request, "/payouts");
  if (isCrossSiteMutation(request)) return json({ error: "Cross-site request refused" }, { status: 403 });
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "");
  if (intent !== "onboard" && intent !== "dashboard") return json({ error: "Unknown action." }, { status: 400 });
  try {
    const context = callContext(request, args.context);
    const country = form.get("country");
    const { url } =
      intent === "onboard"
        ? await invoke(startPayoutOnboarding, user, typeof country === "string" ? { country } : {}, context)
        : await invoke(payoutDashboardLink, user, {}, context);
    return redirect(url);
  } catch (error) {
    return failedPost(error, intent === "onboard" ? "Starting payout onboarding" : "Opening the Stripe dashboard");
  }
}

export default function Payouts() {
  const { overview, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <PayoutsPage overview={overview} notice={notice} error={actionData?.error ?? null} />;
}
