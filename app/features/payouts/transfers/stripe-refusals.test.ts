import { describe, expect, it, vi } from "vitest";
import { http, HttpResponse } from "msw";
import * as payouts from "~/routes/_studio+/payouts";
import * as onboard from "~/routes/_studio+/payouts_.onboard";
import { callRoute, formRequest } from "#tests/setup/requests";
import { stripeMock } from "#tests/mocks/stripe";
import { startStripeOnboarding, setUpStripeMock } from "#tests/setup/stripe";
import { selectWhere } from "#tests/setup/rows-where";

/**
 * When Stripe refuses to open a creator's account or an onboarding link, the
 * creator reads Stripe's own reason (422), not "could not be reached", which
 * is kept for a Stripe that cannot be reached or fails on its side. The real
 * `stripe` library talks to api.stripe.com through msw; the refusals are
 * shaped as Stripe answers them ({error: {type, message, param}}).
 */
const server = setUpStripeMock({
  key: "sk_test_selfie_stripe_refusals",
  env: { STRIPE_PLATFORM_COUNTRY: "US", CURRENCY: "usd" },
  afterEach: () => vi.restoreAllMocks(),
});

/** Stripe's answer refusing a country: its real wording for a pair it does not support. */
const COUNTRY_REFUSAL =
  "Connected accounts in FR cannot be created by platforms in US. Please contact us via https://support.stripe.com/contact if you need further assistance.";

const stripeRefuses = (path: string, status: number, type: string, message: string) =>
  http.post(`https://api.stripe.com/v1${path}`, () =>
    HttpResponse.json({ error: { type, message, param: "country" } }, { status }),
  );

async function onboardByApi(country: string) {
  const { creator, response } = await startStripeOnboarding(country);
  return {
    creator,
    status: response.status,
    body: (await response.json()) as { url?: string; message?: string },
  };
}

const accountsOf = (userId: string) =>
  selectWhere("payout_accounts", "account_id", "user_id", userId);

describe("Stripe refusing to set up a creator's payouts", () => {
  it("a 400 invalid_request_error from POST /v1/accounts shows Stripe's message, on the API and on the page", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    server.use(stripeRefuses("/accounts", 400, "invalid_request_error", COUNTRY_REFUSAL));

    const { creator, status, body } = await onboardByApi("FR");
    expect({ status, body }).toEqual({
      status: 422,
      body: { message: `Stripe refused this: ${COUNTRY_REFUSAL}` },
    });
    expect(await accountsOf(creator.user.id)).toEqual([]);

    const onPage = await callRoute(
      payouts.action,
      formRequest("/payouts", { intent: "onboard", country: "FR" }, { cookie: creator.cookie }),
    );
    expect(onPage.status).toBe(422);
    expect(await onPage.json()).toEqual({ error: `Stripe refused this: ${COUNTRY_REFUSAL}` });
    expect(await accountsOf(creator.user.id)).toEqual([]);
  });

  it("a refused onboarding link shows Stripe's message too, also on the fresh-link page", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const refusal = "This account cannot be onboarded: it was rejected.";
    server.use(stripeRefuses("/account_links", 400, "invalid_request_error", refusal));

    const { creator, status, body } = await onboardByApi("US");
    expect({ status, body }).toEqual({
      status: 422,
      body: { message: `Stripe refused this: ${refusal}` },
    });
    // The account Stripe did open is kept: the next attempt makes only a link.
    expect(await accountsOf(creator.user.id)).toHaveLength(1);

    const fresh = await callRoute(
      onboard.action,
      formRequest("/payouts/onboard", {}, { cookie: creator.cookie }),
    );
    expect(fresh.status).toBe(422);
    expect(await fresh.json()).toEqual({ error: `Stripe refused this: ${refusal}` });
  });

  it("a connection failure or an error on Stripe's side still says it could not be reached", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const unreachable = {
      status: 502,
      body: {
        message:
          "The payout provider could not be reached. Nothing was changed; please try again later.",
      },
    };

    server.use(http.post("https://api.stripe.com/v1/accounts", () => HttpResponse.error()));
    const offline = await onboardByApi("FR");
    expect({ status: offline.status, body: offline.body }).toEqual(unreachable);
    expect(await accountsOf(offline.creator.user.id)).toEqual([]);

    server.resetHandlers();
    server.use(
      stripeRefuses("/accounts", 500, "api_error", "An unknown error occurred on Stripe's side."),
    );
    const failing = await onboardByApi("FR");
    expect({ status: failing.status, body: failing.body }).toEqual(unreachable);
    expect(await accountsOf(failing.creator.user.id)).toEqual([]);
  });

  it("a refusal of the platform's own key or permissions is a 502 that does not repeat Stripe's words", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const platformRefused = {
      status: 502,
      body: {
        message:
          "Stripe refused this platform's request (its settings need the team's attention). Nothing was changed; please try again later.",
      },
    };
    // Stripe answers a bad key 401 with the type invalid_request_error and part of the key in the message.
    server.use(
      stripeRefuses(
        "/accounts",
        401,
        "invalid_request_error",
        "Invalid API Key provided: sk_test_****usal",
      ),
    );
    const badKey = await onboardByApi("FR");
    expect({ status: badKey.status, body: badKey.body }).toEqual(platformRefused);

    server.resetHandlers();
    server.use(
      stripeRefuses(
        "/accounts",
        403,
        "invalid_request_error",
        "The provided key 'rk_test_****usal' does not have the required permissions for this endpoint.",
      ),
    );
    const restricted = await onboardByApi("FR");
    expect({ status: restricted.status, body: restricted.body }).toEqual(platformRefused);
    expect(await accountsOf(restricted.creator.user.id)).toEqual([]);
  });

  it("the table still refuses a country Stripe cannot pay before asking Stripe anything", async () => {
    const { creator, status, body } = await onboardByApi("NG");
    expect(status).toBe(400);
    expect(body.message).toMatch(/^Stripe cannot pay creators in Nigeria from this platform/);
    expect(stripeMock.requests).toEqual([]);
    expect(await accountsOf(creator.user.id)).toEqual([]);
  });
});
