import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useNavigation } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/product";
import { startPayoutOnboarding } from "~/features/payouts/transfers/procedures.server";
import { screenCall } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { failedPost, providerUnreachable } from "~/routes/_studio+/payouts.server";
import { AlertMessage } from "~/ui/alert-message";
import { BackAndSubmit } from "~/ui/back-and-submit";

export const meta: MetaFunction = () => [
  { title: `Payout setup | ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

/**
 * /payouts/onboard: where an expired or already used onboarding link leads
 * (the provider's refresh URL, opened by the browser with a GET). The GET
 * only shows a Continue button and changes nothing, so a link from another
 * site cannot create a payout account; the button's POST makes a fresh link
 * and goes straight to it (with no account yet, it leads to /payouts, which
 * asks the creator's country first).
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireScreenUser(args.request, { access: "user" });
  return json(null, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action(args: ActionFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user", back: "/payouts/onboard" });
  return screenCall(args, {
    procedure: startPayoutOnboarding,
    input: {},
    user,
    onSuccess: ({ result }) => redirect(result.url),
    // No payout account yet: the Payouts page asks the creator's country first.
    reply: (refusal) => (refusal.status === 400 ? redirect("/payouts") : failedPost(refusal)),
    unexpected: (error) => failedPost(providerUnreachable(error, "Making a fresh onboarding link")),
  });
}

export default function PayoutsOnboard() {
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-slate-900">Continue payout setup</h1>
      <p className="mt-3 text-slate-600">
        Your setup link has expired or was already used. Continue to get a fresh one.
      </p>
      {actionData?.error ? <AlertMessage margin="mt-4">{actionData.error}</AlertMessage> : null}
      <BackAndSubmit
        className="mt-8 flex flex-wrap justify-center gap-2"
        backTo="/payouts"
        backLabel="Back to Payouts"
        pending={busy}
        label="Continue setup"
        pendingLabel="Continuing..."
        testId="continue-payout-setup"
      />
    </section>
  );
}
