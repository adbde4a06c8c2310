import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { FlashMessage } from "~/lib/flash";
import { PRODUCT_NAME } from "~/lib/product";
import { creatorPayouts } from "~/features/payouts/ledger/procedures.server";
import {
  payoutDashboardLink,
  refreshMyPayoutAccount,
  startPayoutOnboarding,
} from "~/features/payouts/transfers/procedures.server";
import { PayoutsPage } from "~/features/payouts/components/payouts-page";
import { attemptProcedure, intent, loadProcedure, screenAction } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { failedPost, providerUnreachable, returnNotice } from "~/routes/_studio+/payouts.server";

export const meta: MetaFunction = () => [{ title: `Payouts | ${PRODUCT_NAME}` }];

/**
 * /payouts: the creator's payout account, balance and transfers. Coming back
 * from onboarding (?onboarding=return), the account's state is asked for
 * first, and the page says what it is now.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  let notice: FlashMessage | null = null;
  if (new URL(args.request.url).searchParams.get("onboarding") === "return") {
    const title = "Could not update your payout account";
    try {
      const outcome = await attemptProcedure(refreshMyPayoutAccount, args, {}, user);
      notice = outcome.ok
        ? returnNotice(outcome.result)
        : { kind: "error", title, description: outcome.refusal.message };
    } catch (error) {
      notice = {
        kind: "error",
        title,
        description: providerUnreachable(error, "Refreshing a payout account").message,
      };
    }
  }
  const overview = await loadProcedure(creatorPayouts, args, {}, user);
  return json({ overview, notice }, { headers: { "Cache-Control": "private, no-store" } });
}

/** intent=onboard: to the provider's onboarding; intent=dashboard: to the creator's Stripe dashboard. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user", back: "/payouts" });
  return screenAction<{ error: string }>(args, {
    user,
    unknownIntent: () => json({ error: "Unknown action." }, { status: 400 }),
    intents: {
      onboard: intent({
        procedure: startPayoutOnboarding,
        rawInput: (form) => {
          const country = form.get("country");
          return typeof country === "string" ? { country } : {};
        },
        reply: failedPost,
        unexpected: (error) => failedPost(providerUnreachable(error, "Starting payout onboarding")),
        onSuccess: ({ result }) => redirect(result.url),
      }),
      dashboard: intent({
        procedure: payoutDashboardLink,
        rawInput: () => ({}),
        reply: failedPost,
        unexpected: (error) =>
          failedPost(providerUnreachable(error, "Opening the Stripe dashboard")),
        onSuccess: ({ result }) => redirect(result.url),
      }),
    },
  });
}

export default function Payouts() {
  const { overview, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <PayoutsPage overview={overview} notice={notice} error={actionData?.error ?? null} />;
}
