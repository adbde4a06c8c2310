import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/product";
import {
  completeTestOnboarding,
  testOnboardingState,
} from "~/features/payouts/transfers/procedures.server";
import { ACCOUNT_STATES } from "~/features/payouts/components/payout-words";
import { PAGE_NOT_FOUND, RouteErrorPanel, SOMETHING_WENT_WRONG } from "~/ui/error-panel";
import { loadProcedure, screenCall } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { failedPost, providerUnreachable } from "~/routes/_studio+/payouts.server";
import { AlertMessage } from "~/ui/alert-message";
import { BackAndSubmit } from "~/ui/back-and-submit";
import { TestModeBanner } from "~/ui/test-mode-banner";

export const meta: MetaFunction = () => [
  { title: `Test payout onboarding | ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

/**
 * /payouts/test-onboarding: the in-app stand-in for Stripe's hosted
 * onboarding, used when no Stripe key is configured. Completing it makes the
 * creator's test payout account ready; no money moves. A 404 when Stripe is
 * configured or the creator has not started setting up payouts.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const state = await loadProcedure(testOnboardingState, args, {}, user);
  return json(state, {
    headers: { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" },
  });
}

/** Completes the test onboarding and goes back to /payouts, which reads the account's new state. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  return screenCall(args, {
    procedure: completeTestOnboarding,
    input: {},
    user,
    onSuccess: () => redirect("/payouts?onboarding=return"),
    reply: failedPost,
    unexpected: (error) => failedPost(providerUnreachable(error, "Completing test onboarding")),
  });
}

export default function TestOnboarding() {
  const state = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const done = state.status === "active";
  return (
    <div className="mx-auto max-w-xl px-4 py-10">
      <TestModeBanner titleSize="text-2xl">
        This page stands in for Stripe&apos;s hosted onboarding, because no Stripe account is
        configured on this server. Nothing you do here reaches a bank and no money moves: your share
        of each sale is recorded as sent to a test payout account.
      </TestModeBanner>
      <section className="card p-6" aria-labelledby="test-onboarding-title">
        <h1 id="test-onboarding-title" className="text-2xl font-bold text-slate-900">
          Set up your test payout account
        </h1>
        <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-slate-600">Email</dt>
          <dd className="text-slate-900" data-testid="test-onboarding-email">
            {state.email}
          </dd>
          <dt className="font-medium text-slate-600">Account</dt>
          <dd>
            <code className="break-all text-xs" data-testid="test-onboarding-account">
              {state.accountId}
            </code>
          </dd>
          <dt className="font-medium text-slate-600">State</dt>
          <dd className="text-slate-900">{ACCOUNT_STATES[state.status].label}</dd>
        </dl>
        {actionData?.error ? <AlertMessage margin="mt-4">{actionData.error}</AlertMessage> : null}
        <p className="mt-4 text-sm text-slate-700">
          {done
            ? "This test payout account is already set up. Completing again changes nothing."
            : "Completing makes this account ready at once, and every share you are owed is sent to it."}
        </p>
        <BackAndSubmit
          className="mt-6 flex flex-wrap justify-end gap-2"
          backTo="/payouts"
          backLabel="Cancel"
          pending={busy}
          label="Complete test onboarding"
          pendingLabel="Completing..."
          testId="complete-test-onboarding"
        />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <RouteErrorPanel
      notFound={{
        ...PAGE_NOT_FOUND,
        detail:
          "Test payout onboarding is only there when Stripe is not configured, after you start setting up payouts.",
        linkTo: "/payouts",
        linkLabel: "Back to Payouts",
      }}
      otherwise={{ ...SOMETHING_WENT_WRONG, linkTo: "/payouts", linkLabel: "Back to Payouts" }}
    />
  );
}
