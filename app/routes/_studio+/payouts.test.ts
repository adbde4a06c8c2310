import { afterEach, describe, expect, it, vi } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { TestCheckoutProvider } from "~/infra/payments/test-checkout.server";
import { payoutProviderById } from "~/infra/payouts/select-payout-provider.server";
import { payTestOrder, startCheckout } from "~/features/market/checkout/checkout.server";
import { findOrderBySessionId } from "~/features/market/orders/orders.server";
import { runTransfer } from "~/features/payouts/transfers/payout-jobs.server";
import type { PayoutsOverview } from "~/features/payouts/types";
import type { FlashMessage } from "~/lib/flash";
import * as payouts from "~/routes/_studio+/payouts";
import * as onboard from "~/routes/_studio+/payouts_.onboard";
import * as testOnboarding from "~/routes/_studio+/payouts_.test-onboarding";
import * as dashboard from "~/routes/_studio+/dashboard";
import { callRoute, formRequest, makeRequest, ORIGIN } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { payoutAccountsOf } from "#tests/setup/user-state";
import { newCreatorOverview } from "~/features/payouts/test-support";
import { rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";

const tokenPayouts = apiRoute("/api/token-payouts");
const onboardApi = apiRoute("/api/payouts/onboard");

/** The Payouts screens without JavaScript, and their /api routes, on the built-in test payout provider. */

type PageData = { overview: PayoutsOverview; notice: FlashMessage | null };

const stripeKeyAtStart = getConfig().STRIPE_SECRET_KEY;
afterEach(() => {
  (getConfig() as { STRIPE_SECRET_KEY?: string }).STRIPE_SECRET_KEY = stripeKeyAtStart;
});

async function page(path: string, cookie: string): Promise<PageData> {
  const response = await callRoute(payouts.loader, makeRequest(path, { cookie }));
  expect(response.status).toBe(200);
  return (await response.json()) as PageData;
}

/** A sale of the creator's listing in the built-in test checkout, paid the way its Pay button does. */
async function testCheckoutSale(listingId: string) {
  const db = getDb();
  const started = await startCheckout(db, new TestCheckoutProvider(), {
    listingIds: [listingId],
    customer: { name: "Bea Buyer", email: "bea@example.com" },
    origin: ORIGIN,
    now: new Date(),
  });
  await payTestOrder(db, (await findOrderBySessionId(db, started.sessionId))!, new Date());
  return started.orderId;
}

describe("signed out", () => {
  it("sends a visitor to sign in and back to the page they asked for", async () => {
    for (const [handler, path] of [
      [payouts.loader, "/payouts?onboarding=return"],
      [onboard.loader, "/payouts/onboard"],
      [testOnboarding.loader, "/payouts/test-onboarding"],
    ] as const) {
      const response = await callRoute(handler, makeRequest(path));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
    }
    for (const [handler, path] of [
      [payouts.action, "/payouts"],
      [testOnboarding.action, "/payouts/test-onboarding"],
    ] as const) {
      const response = await callRoute(
        handler,
        formRequest(path, { intent: "onboard", country: "US" }),
      );
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
    }
    expect(await getDb().selectFrom("payout_accounts").select("user_id").execute()).toEqual([]);
  });
});

describe("/payouts in test mode", () => {
  it("onboards end to end: set up, complete the test onboarding, and the owed share of an earlier sale is queued for transfer", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, {
      price: 10,
      title: "Harbour at Dusk",
    });
    const orderId = await testCheckoutSale(listing.id);

    // Before: no account, the share is owed.
    const before = await page("/payouts", creator.cookie);
    expect(before.overview.account).toEqual({
      provider: "test",
      status: "not_connected",
      payoutsEnabled: false,
      country: null,
      crossBorder: false,
    });
    expect(before.overview.balance).toEqual({
      earned: "8.50",
      owed: "8.50",
      transferred: "0",
      held: "0",
      reversed: "0",
    });
    expect(before.overview.testAccountBalance).toBeNull();
    expect(before.notice).toBeNull();

    // Set up payouts: to the in-app test onboarding page.
    const started = await callRoute(
      payouts.action,
      formRequest("/payouts", { intent: "onboard", country: "US" }, { cookie: creator.cookie }),
    );
    expect(started.status).toBe(302);
    expect(started.headers.get("Location")).toBe(`${ORIGIN}/payouts/test-onboarding`);

    const onboardingPage = await callRoute(
      testOnboarding.loader,
      makeRequest("/payouts/test-onboarding", { cookie: creator.cookie }),
    );
    expect(onboardingPage.status).toBe(200);
    const state = await onboardingPage.json();
    expect(state).toEqual({
      accountId: expect.stringMatching(/^tacct_/),
      email: creator.user.email,
      status: "pending",
    });

    const pending = await page("/payouts", creator.cookie);
    expect(pending.overview.account.status).toBe("pending");
    expect(pending.overview.testAccountBalance).toBe("0");

    // Nothing is queued before the account is ready.
    const transferJobs = () =>
      selectWhere("jobs", ["kind", "payload", "status"], "kind", "payouts.transfer");
    expect(await transferJobs()).toEqual([]);

    // Complete: back to /payouts, which reads the account's new state.
    const completed = await callRoute(
      testOnboarding.action,
      formRequest("/payouts/test-onboarding", {}, { cookie: creator.cookie }),
    );
    expect(completed.status).toBe(302);
    expect(completed.headers.get("Location")).toBe("/payouts?onboarding=return");
    const back = await page("/payouts?onboarding=return", creator.cookie);
    expect(back.overview.account).toEqual({
      provider: "test",
      status: "active",
      payoutsEnabled: true,
      country: "US",
      crossBorder: false,
    });
    expect(back.notice).toMatchObject({ kind: "success", title: "Payout account updated" });

    // The sale made before onboarding is queued as a transfer job.
    const earning = await rowWhere(
      "earnings",
      ["id", "status", "order_item_id"],
      "order_id",
      orderId,
    );
    const jobs = await transferJobs();
    expect(jobs).toHaveLength(1);
    expect(JSON.parse(jobs[0].payload)).toEqual({ earningId: earning.id });

    // Run it: the share is sent to the test payout account and listed as a transfer.
    await runTransfer(
      {
        payoutProvider: (id, given) => payoutProviderById(id, getConfig(), given),
        chargeOf: async () => null,
        rememberCharge: async () => {},
      },
      { earningId: earning.id },
      { db, now: () => new Date() },
    );
    const after = await page("/payouts", creator.cookie);
    expect(after.overview.balance).toEqual({
      earned: "8.50",
      owed: "0",
      transferred: "8.50",
      held: "0",
      reversed: "0",
    });
    expect(after.overview.testAccountBalance).toBe("8.50");
    expect(after.overview.transfers).toEqual([
      {
        id: expect.any(String),
        title: "Harbour at Dusk",
        saleReference: earning.order_item_id,
        amount: "8.50",
        reversed: "0",
        status: "transferred",
        createdAt: expect.any(String),
        testMode: true,
      },
    ]);

    // The dashboard's Payouts card has the same numbers.
    const board = await (
      await callRoute(dashboard.loader, makeRequest("/dashboard", { cookie: creator.cookie }))
    ).json();
    expect(board.payouts.account.status).toBe("active");
    expect(board.payouts.balance.transferred).toBe("8.50");
  });

  it("says so when the creator comes back without finishing, and /payouts/onboard makes a fresh link", async () => {
    const creator = await createTestUser();
    await callRoute(
      payouts.action,
      formRequest("/payouts", { intent: "onboard", country: "US" }, { cookie: creator.cookie }),
    );
    const back = await page("/payouts?onboarding=return", creator.cookie);
    expect(back.overview.account.status).toBe("pending");
    expect(back.notice).toMatchObject({
      kind: "info",
      description: expect.stringContaining("Continue setup"),
    });

    // Stripe's refresh_url is opened with a GET: a page with a Continue button, whose POST makes the fresh link.
    const refreshPage = await callRoute(
      onboard.loader,
      makeRequest("/payouts/onboard", { cookie: creator.cookie }),
    );
    expect(refreshPage.status).toBe(200);
    const fresh = await callRoute(
      onboard.action,
      formRequest("/payouts/onboard", {}, { cookie: creator.cookie }),
    );
    expect(fresh.status).toBe(302);
    expect(fresh.headers.get("Location")).toBe(`${ORIGIN}/payouts/test-onboarding`);
    expect(
      await selectWhere("payout_accounts", "account_id", "user_id", creator.user.id),
    ).toHaveLength(1);
  });

  it("changes nothing on a GET of /payouts/onboard or /api/payouts/onboard, nor on a cross-site POST", async () => {
    const creator = await createTestUser();
    const accounts = () => selectWhere("payout_accounts", "account_id", "user_id", creator.user.id);

    const get = await callRoute(
      onboard.loader,
      makeRequest("/payouts/onboard", { cookie: creator.cookie }),
    );
    expect(get.status).toBe(200);
    expect(get.headers.get("Location")).toBeNull();
    expect(await accounts()).toEqual([]);

    const apiGet = await callRoute(
      onboardApi.loader,
      makeRequest("/api/payouts/onboard", { token: creator.token }),
    );
    expect(apiGet.status).toBe(405);
    expect(await accounts()).toEqual([]);

    const crossSite = await callRoute(
      onboard.action,
      formRequest("/payouts/onboard", {}, { cookie: creator.cookie, origin: "cross" }),
    );
    expect(crossSite.status).toBe(403);
    expect(await accounts()).toEqual([]);

    // No account yet: the Payouts page asks the country first; nothing is made here.
    const post = await callRoute(
      onboard.action,
      formRequest("/payouts/onboard", {}, { cookie: creator.cookie }),
    );
    expect(post.status).toBe(302);
    expect(post.headers.get("Location")).toBe("/payouts");
    expect(await accounts()).toEqual([]);
  });

  it("shows a refused action on the page instead of failing", async () => {
    const creator = await createTestUser();
    const dashboardLink = await callRoute(
      payouts.action,
      formRequest("/payouts", { intent: "dashboard" }, { cookie: creator.cookie }),
    );
    expect(dashboardLink.status).toBe(409);
    expect(await dashboardLink.json()).toEqual({ error: "Finish setting up payouts first" });

    const unknown = await callRoute(
      payouts.action,
      formRequest("/payouts", { intent: "nonsense" }, { cookie: creator.cookie }),
    );
    expect(unknown.status).toBe(400);

    const crossSite = await callRoute(
      payouts.action,
      formRequest(
        "/payouts",
        { intent: "onboard", country: "US" },
        { cookie: creator.cookie, origin: "cross" },
      ),
    );
    expect(crossSite.status).toBe(403);
    expect(await rowsWhere("payout_accounts", "user_id", creator.user.id)).toEqual([]);

    // A provider that cannot be reached is a message too, never a 500.
    vi.spyOn(console, "warn").mockImplementation(() => {});
    (getConfig() as { STRIPE_SECRET_KEY?: string }).STRIPE_SECRET_KEY = "sk_test_unreachable";
    const { StripeConnectProvider } = await import("~/infra/payouts/stripe-connect.server");
    vi.spyOn(StripeConnectProvider.prototype, "createAccount").mockRejectedValue(
      new Error("connect ECONNREFUSED"),
    );
    const failed = await callRoute(
      payouts.action,
      formRequest("/payouts", { intent: "onboard", country: "US" }, { cookie: creator.cookie }),
    );
    expect(failed.status).toBe(502);
    expect(await failed.json()).toEqual({
      error:
        "The payout provider could not be reached. Nothing was changed; please try again later.",
    });
  });

  it("tells a creator in a country Stripe cannot pay so on the page, before anything is set up", async () => {
    const creator = await createTestUser();
    const refused = await callRoute(
      payouts.action,
      formRequest("/payouts", { intent: "onboard", country: "NG" }, { cookie: creator.cookie }),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^Stripe cannot pay creators in Nigeria from this platform: .* Nothing was set up\.$/,
    );
    const missing = await callRoute(
      payouts.action,
      formRequest("/payouts", { intent: "onboard" }, { cookie: creator.cookie }),
    );
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toBe(
      "Choose the country you live in, where your bank account is.",
    );
    expect(await payoutAccountsOf(creator.user.id)).toEqual([]);
    expect(await rowsWhere("test_payout_accounts", "email", creator.user.email)).toEqual([]);
  });

  it("answers the test onboarding page with a 404 before payouts are set up, and when Stripe is configured", async () => {
    const creator = await createTestUser();
    const early = await callRoute(
      testOnboarding.loader,
      makeRequest("/payouts/test-onboarding", { cookie: creator.cookie }),
    );
    expect(early.status).toBe(404);
    const earlyPost = await callRoute(
      testOnboarding.action,
      formRequest("/payouts/test-onboarding", {}, { cookie: creator.cookie }),
    );
    expect(earlyPost.status).toBe(404);

    await callRoute(
      payouts.action,
      formRequest("/payouts", { intent: "onboard", country: "US" }, { cookie: creator.cookie }),
    );
    (getConfig() as { STRIPE_SECRET_KEY?: string }).STRIPE_SECRET_KEY = "sk_test_configured";
    const withStripe = await callRoute(
      testOnboarding.loader,
      makeRequest("/payouts/test-onboarding", { cookie: creator.cookie }),
    );
    expect(withStripe.status).toBe(404);
  });
});

describe("the payouts /api routes", () => {
  it("GET /api/token-payouts answers a fresh creator's empty account and balance", async () => {
    const creator = await createTestUser();
    const response = await callRoute(
      tokenPayouts.loader,
      makeRequest("/api/token-payouts", { token: creator.token }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(newCreatorOverview());
    expect((await callRoute(tokenPayouts.loader, makeRequest("/api/token-payouts"))).status).toBe(
      401,
    );
  });

  it("POST /api/payouts/onboard answers the onboarding link, the same account every time", async () => {
    const creator = await createTestUser();
    for (let i = 0; i < 2; i++) {
      const response = await callRoute(
        onboardApi.action,
        makeRequest("/api/payouts/onboard", {
          method: "POST",
          token: creator.token,
          json: { country: "US" },
        }),
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ url: `${ORIGIN}/payouts/test-onboarding` });
    }
    expect(await selectWhere("payout_accounts", "provider", "user_id", creator.user.id)).toEqual([
      { provider: "test" },
    ]);
    const status = await (
      await callRoute(
        tokenPayouts.loader,
        makeRequest("/api/token-payouts", { token: creator.token }),
      )
    ).json();
    expect(status.account).toEqual({
      provider: "test",
      status: "pending",
      payoutsEnabled: false,
      country: "US",
      crossBorder: false,
    });
    expect(
      (await callRoute(onboardApi.action, makeRequest("/api/payouts/onboard", { method: "POST" })))
        .status,
    ).toBe(401);
  });
});
