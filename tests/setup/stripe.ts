import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { setupServer, type SetupServer } from "msw/node";
import { getDb } from "~/infra/db.server";
import { checkoutSessionHash } from "~/features/market/orders/orders.server";
import {
  accountUpdatedEvent,
  checkoutEvent,
  signPayload,
  stripeHandlers,
  stripeMock,
} from "#tests/mocks/stripe";
import { apiRoute } from "#tests/setup/api-routes";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { payoutDeps } from "#tests/setup/payouts";
import type { PayoutProvider } from "~/infra/payouts/payout-provider.server";
import { StripeConnectProvider } from "~/infra/payouts/stripe-connect.server";
import { StripeCheckoutProvider } from "~/infra/payments/stripe-checkout.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { rowWhere } from "./rows-where";

/**
 * The real `stripe` library against the msw Stripe mock (tests/mocks/stripe.ts),
 * and webhooks signed as Stripe signs them, delivered to the real route.
 */

export interface StripeTestOptions {
  /** The server's STRIPE_SECRET_KEY. */
  key?: string;
  /** The platform endpoint's secret (STRIPE_WEBHOOK_SECRET). */
  webhookSecret?: string;
  /** The Connect endpoint's secret (STRIPE_CONNECT_WEBHOOK_SECRET). */
  connectSecret?: string;
  /** Any other settings the file's server runs with. */
  env?: Record<string, string>;
  /** Run after each test, once the mock is reset. */
  afterEach?: () => unknown;
}

/**
 * Sets the server's Stripe settings (the configuration is read when first
 * asked for, after the file's imports), answers api.stripe.com with the mock
 * for the file's tests (an unhandled request is an error), and resets the mock
 * and its handlers after each test. Answers the msw server, for `server.use`.
 */
export function setUpStripeMock(options: StripeTestOptions = {}): SetupServer {
  const env: Record<string, string | undefined> = {
    STRIPE_SECRET_KEY: options.key,
    STRIPE_WEBHOOK_SECRET: options.webhookSecret,
    STRIPE_CONNECT_WEBHOOK_SECRET: options.connectSecret,
    ...options.env,
  };
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined) process.env[name] = value;
  }
  const server = setupServer(...stripeHandlers);
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(async () => {
    server.resetHandlers();
    stripeMock.reset();
    await options.afterEach?.();
  });
  afterAll(() => server.close());
  return server;
}

/**
 * setUpStripeMock for a file whose tests queue payout jobs (the jobs are
 * deleted after each test), with settings named for the file: the key
 * sk_test_selfie_<name>, the secrets whsec_platform_<name> and
 * whsec_connect_<name>. Answers the settings and the msw server.
 */
export function setUpStripePayoutMock(name: string) {
  const secrets = {
    key: `sk_test_selfie_${name}`,
    webhookSecret: `whsec_platform_${name}`,
    connectSecret: `whsec_connect_${name}`,
  };
  const server = setUpStripeMock({
    ...secrets,
    afterEach: () => getDb().deleteFrom("jobs").execute(),
  });
  return { ...secrets, server };
}

/** The payout jobs' dependencies with Stripe: the Connect provider (by default of `key`) and charges read with `key`. */
export function stripePayoutDeps(
  key: string,
  provider: PayoutProvider = new StripeConnectProvider(key),
) {
  return payoutDeps(provider, (paymentIntentId) =>
    new StripeCheckoutProvider(key).chargeOf(paymentIntentId),
  );
}

/** The requests the Stripe mock heard with this method to a path that matches. */
export function stripeRequestsTo(method: string, path: RegExp) {
  return stripeMock.requests.filter(
    (request) => request.method === method && path.test(request.path),
  );
}

const webhookRoute = apiRoute("/api/webhooks/stripe");

/** POST /api/webhooks/stripe with the payload and the Stripe-Signature header (none when not given). */
export function postStripeWebhook(payload: string, signature?: string | null): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (signature) headers["Stripe-Signature"] = signature;
  return callRoute(
    webhookRoute.action,
    makeRequest("/api/webhooks/stripe", { method: "POST", body: payload, headers, origin: "none" }),
  );
}

/** What the webhook route answers. */
export interface StripeWebhookAnswer {
  received?: boolean;
  outcome?: string;
  reason?: string;
  message?: string;
}

/** Delivers a payload signed with `secret` (at `signedAt`, Unix seconds; now by default). */
export async function deliverStripeWebhook(
  payload: string,
  secret: string,
  signedAt?: number,
): Promise<{ status: number; body: StripeWebhookAnswer }> {
  const response = await postStripeWebhook(payload, signPayload(payload, secret, signedAt));
  return { status: response.status, body: (await response.json()) as StripeWebhookAnswer };
}

const onboardRoute = apiRoute("/api/payouts/onboard");

/** POST /api/payouts/onboard as the user: open (or reuse) a Stripe account in `country`. */
export function postPayoutOnboarding(token: string, country = "US"): Promise<Response> {
  return callRoute(
    onboardRoute.action,
    makeRequest("/api/payouts/onboard", { method: "POST", token, json: { country } }),
  );
}

/** A new creator who asked for a payout account in `country`: the creator and the answer. */
export async function startStripeOnboarding(country = "US") {
  const creator = await createTestUser();
  return { creator, response: await postPayoutOnboarding(creator.token, country) };
}

/** The Stripe account id recorded for the user. */
export async function stripeAccountOf(userId: string): Promise<string> {
  const { account_id: accountId } = await rowWhere(
    "payout_accounts",
    "account_id",
    "user_id",
    userId,
  );
  return accountId;
}

/**
 * A creator whose Express account was opened at Stripe (the onboarding answers
 * 200). When `connectSecret` is given the creator also finishes Stripe's
 * onboarding, as account.updated tells the Connect endpoint (processed).
 */
export async function creatorWithStripeAccount(
  options: { country?: string; connectSecret?: string } = {},
) {
  const { creator, response } = await startStripeOnboarding(options.country);
  expect(response.status).toBe(200);
  const accountId = await stripeAccountOf(creator.user.id);
  if (options.connectSecret !== undefined) {
    stripeMock.onboard(accountId);
    expect(
      await deliverStripeWebhook(accountUpdatedEvent(accountId), options.connectSecret),
    ).toMatchObject({ status: 200, body: { outcome: "processed" } });
  }
  return { ...creator, accountId };
}

const checkoutRoute = apiRoute("/api/create-checkout-session");

/** POST /api/create-checkout-session with the cart and the buyer. */
export function createCheckoutSession(
  cartItems: Record<string, unknown>[],
  customerInfo: { name: string; email: string },
  extra: Record<string, unknown> = {},
): Promise<Response> {
  return callRoute(
    checkoutRoute.action,
    makeRequest("/api/create-checkout-session", {
      json: { cartItems, customerInfo, ...extra },
    }),
  );
}

/** A checkout of one new listing of a new creator's by `buyer`, started (200): its session id. */
export async function newListingCheckout(buyer: { name: string; email: string }): Promise<string> {
  const { user } = await createTestUser();
  const { listing } = await createListing(user.id);
  const started = await createCheckoutSession([{ imageId: listing.id }], buyer);
  expect(started.status).toBe(200);
  return ((await started.json()) as { sessionId: string }).sessionId;
}

/** The status of the order the buyer with this email placed. */
export async function orderStatusByEmail(email: string): Promise<string> {
  const { status } = await rowWhere("orders", "status", "customer_email", email);
  return status;
}

/** The status of the payout account as this app recorded it. */
export async function payoutAccountStatus(accountId: string): Promise<string> {
  const { status } = await rowWhere("payout_accounts", "status", "account_id", accountId);
  return status;
}

/** How many webhook events the app recorded. */
export async function webhookEventsRecorded(): Promise<number> {
  return (await getDb().selectFrom("webhook_events").select("id").execute()).length;
}

/**
 * A Stripe checkout of one new listing (20 dollars, standard license) by the
 * buyer, paid at Stripe; its webhook not yet delivered.
 */
export async function paidStripeSession(email: string) {
  const creator = await createTestUser();
  const { listing } = await createListing(creator.user.id, { price: 20 });
  const response = await createCheckoutSession([{ imageId: listing.id, licenseType: "standard" }], {
    name: "Sam",
    email,
  });
  const body = (await response.json()) as { sessionId: string };
  expect(body).toMatchObject({ sessionId: expect.any(String) });
  return { session: stripeMock.complete(body.sessionId), email };
}

/**
 * The buyer pays the session on Stripe's page and the platform endpoint hears
 * of it (200, processed): the session, its order and the charge.
 */
export async function payStripeSession(sessionId: string, webhookSecret: string) {
  const session = stripeMock.complete(sessionId);
  expect(
    await deliverStripeWebhook(checkoutEvent("checkout.session.completed", session), webhookSecret),
  ).toMatchObject({ status: 200, body: { outcome: "processed" } });
  const order = await rowWhere(
    "orders",
    "*",
    "checkout_session_hash",
    checkoutSessionHash(sessionId),
  );
  const chargeId = stripeMock.paymentIntents.get(session.payment_intent!)!.latest_charge;
  return { session, order, chargeId };
}

/**
 * A Stripe sale of the listings (standard licenses) to Sam Stripe at `email`,
 * paid at Stripe and fulfilled by its webhook: the session, order and charge.
 */
export async function paidStripeSale(listingIds: string[], email: string, webhookSecret: string) {
  const response = await createCheckoutSession(
    listingIds.map((imageId) => ({ imageId, licenseType: "standard", price: 1 })),
    { name: "Sam Stripe", email },
  );
  const { sessionId } = (await response.json()) as { sessionId: string };
  return payStripeSession(sessionId, webhookSecret);
}
