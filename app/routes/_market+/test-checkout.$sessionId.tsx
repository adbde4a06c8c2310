import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { StyleBadge } from "~/features/market/catalog/components/style-badge";
import { dollarsToCents, formatMoney } from "~/lib/money";
import { PRODUCT_NAME } from "~/lib/product";
import {
  cancelTestCheckout,
  payTestCheckout,
  testCheckoutSession,
} from "~/features/market/checkout/procedures.server";
import { intent, loadProcedure, screenAction } from "~/web/screen-action.server";
import { RouteErrorPanel, SOMETHING_WENT_WRONG, BACK_TO_MARKETPLACE } from "~/ui/error-panel";
import { forwardLoaderHeaders } from "~/web/route-headers.server";
import { readFormData } from "~/web/http.server";
import { testCheckoutView } from "~/routes/_market+/test-checkout.$sessionId.server";
import { AlertMessage } from "~/ui/alert-message";
import { TestModeBanner } from "~/ui/test-mode-banner";
import { SecondaryLink } from "~/ui/secondary-link";

export const meta: MetaFunction = () => [
  { title: `Test checkout | ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];
export const headers = forwardLoaderHeaders;

/**
 * The built-in test checkout: the in-app stand-in for Stripe's hosted page,
 * used when no Stripe key is configured. Pay runs the real fulfillment; no
 * money moves. Plain forms, so it works without JavaScript. Once Stripe is
 * configured, a leftover test session can no longer be paid (the page says so).
 */
export async function loader(args: LoaderFunctionArgs) {
  // Public: the session id (a long random secret) is the key, as on Stripe's page.
  const session = await loadProcedure(
    testCheckoutSession,
    args,
    { sessionId: args.params.sessionId ?? "" },
    null,
  );
  return json(testCheckoutView(session), {
    headers: { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" },
  });
}

export async function action(args: ActionFunctionArgs) {
  const sessionId = args.params.sessionId ?? "";
  // The session is the page's address, not a field of its forms.
  const form = await readFormData(args.request);
  form.set("sessionId", sessionId);
  const pay = intent({
    procedure: payTestCheckout,
    reply: "form",
    onSuccess: () =>
      redirect(`/marketplace?session_id=${encodeURIComponent(sessionId)}&success=true`),
  });
  return screenAction(args, {
    user: null,
    form,
    intents: {
      pay,
      cancel: intent({
        procedure: cancelTestCheckout,
        reply: "form",
        onSuccess: () => redirect("/marketplace?checkout=cancelled"),
      }),
    },
    // Pay is the page's main button: any other intent pays, as before.
    unknownIntent: pay,
  });
}

export default function TestCheckout() {
  const session = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const error = actionData && "error" in actionData ? actionData.error?.[""]?.[0] : undefined;
  const open = session.status === "pending" && !session.closedReason;
  return (
    <div className="mx-auto max-w-xl px-4 py-10">
      <TestModeBanner titleSize="text-lg">
        This is {PRODUCT_NAME}&apos;s built-in test checkout, shown because no payment provider is
        configured. No card is charged and no money moves. Paying here completes the order exactly
        as a real payment would.
      </TestModeBanner>
      <section className="card p-6" aria-labelledby="test-checkout-title">
        <h1 id="test-checkout-title" className="text-2xl font-bold text-slate-900">
          Pay {PRODUCT_NAME}
        </h1>
        <p className="mt-1 text-sm wrap-anywhere text-slate-600">
          {session.customer.name} · {session.customer.email}
          {session.customer.company ? ` · ${session.customer.company}` : ""}
        </p>
        <ul className="mt-4 divide-y divide-slate-200" data-testid="test-checkout-items">
          {session.items.map((item) => (
            <li key={item.id} className="flex items-center justify-between gap-3 py-3">
              <div className="min-w-0 wrap-anywhere">
                <p className="font-medium text-slate-900">{item.title}</p>
                <p className="text-sm text-slate-600">
                  <StyleBadge style={item.style} />{" "}
                  <span data-testid="test-checkout-license">{item.licenseName}</span>
                </p>
              </div>
              <span className="font-semibold" data-testid="test-checkout-price">
                {formatMoney(dollarsToCents(item.price) ?? 0)}
              </span>
            </li>
          ))}
        </ul>
        {session.taxLabel || session.discountCents > 0 || session.reverseChargeNote ? (
          <dl className="mt-2 space-y-1 border-t border-slate-200 pt-3 text-sm text-slate-700">
            <div className="flex justify-between">
              <dt>Subtotal</dt>
              <dd data-testid="test-checkout-subtotal">{formatMoney(session.subtotalCents)}</dd>
            </div>
            {session.discountCents > 0 ? (
              <div className="flex justify-between">
                <dt>Discount</dt>
                <dd data-testid="test-checkout-discount">-{formatMoney(session.discountCents)}</dd>
              </div>
            ) : null}
            {session.taxLabel ? (
              <div className="flex justify-between">
                <dt>{session.taxLabel}</dt>
                <dd data-testid="test-checkout-tax">{formatMoney(session.taxCents)}</dd>
              </div>
            ) : null}
            {session.reverseChargeNote ? (
              <p data-testid="test-checkout-reverse-charge">{session.reverseChargeNote}</p>
            ) : null}
          </dl>
        ) : null}
        <div className="mt-2 flex items-center justify-between border-t border-slate-200 pt-3">
          <span className="font-medium">Total</span>
          <span className="text-xl font-bold" data-testid="test-checkout-total">
            {formatMoney(session.totalCents)}
          </span>
        </div>
        {error ? <AlertMessage margin="mt-4">{error}</AlertMessage> : null}
        {session.closedReason ? (
          <p
            role="alert"
            className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
            data-testid="test-checkout-closed"
          >
            {session.closedReason}
          </p>
        ) : null}
        {open ? (
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <Form method="post">
              <input type="hidden" name="intent" value="cancel" />
              <button type="submit" className="btn-secondary" disabled={busy}>
                Cancel
              </button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="pay" />
              <button type="submit" className="btn-primary" disabled={busy} data-testid="test-pay">
                {busy ? "Paying..." : `Pay ${formatMoney(session.totalCents)} (test)`}
              </button>
            </Form>
          </div>
        ) : (
          <div className="mt-6 space-y-3 text-sm text-slate-700">
            <p>This checkout session is {session.status === "paid" ? "already paid" : "closed"}.</p>
            {session.status === "paid" ? (
              <Link
                to={`/marketplace?session_id=${encodeURIComponent(session.sessionId)}&success=true`}
                className="btn-primary"
              >
                See your downloads
              </Link>
            ) : (
              <SecondaryLink to="/marketplace">Back to the marketplace</SecondaryLink>
            )}
          </div>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <RouteErrorPanel
      notFound={{
        title: "Checkout session not found",
        detail: "This checkout link is not valid. Start again from your cart.",
        ...BACK_TO_MARKETPLACE,
      }}
      otherwise={{
        ...SOMETHING_WENT_WRONG,
        ...BACK_TO_MARKETPLACE,
      }}
    />
  );
}
