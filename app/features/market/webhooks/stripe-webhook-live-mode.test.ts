import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getConfig } from "~/infra/config.server";
import { createTestUser } from "#tests/setup/accounts";
import { stripeEvent } from "#tests/mocks/stripe";
import {
  deliverStripeWebhook as deliver,
  orderStatusByEmail as orderStatus,
  paidStripeSession,
  payoutAccountStatus as payoutStatus,
  setUpStripeMock,
  webhookEventsRecorded as eventsRecorded,
} from "#tests/setup/stripe";
import { WEBHOOK_PROCESSED, webhookIgnored, webhookRefused } from "~/features/market/test-support";

/**
 * Stripe sends both live and test-mode events of connected accounts to a live
 * Connect endpoint, and disables an endpoint that keeps failing. So a server
 * acts only on events of its own mode (a live STRIPE_SECRET_KEY, sk_live_ or
 * rk_live_, makes a live server) and answers any other verified event 200
 * "ignored", changing nothing; the signature is still checked first. Real
 * signatures, made by the stripe library.
 */
const LIVE_KEY = "sk_live_selfie_studio_live_server";
const TEST_KEY = "sk_test_selfie_studio_test_server";
const PLATFORM_SECRET = "whsec_live_platform";
const CONNECT_SECRET = "whsec_live_connect";
setUpStripeMock({
  key: LIVE_KEY,
  webhookSecret: PLATFORM_SECRET,
  connectSecret: CONNECT_SECRET,
  afterEach: () => serverKey(LIVE_KEY),
});

/** The server's Stripe key, which makes it a live or a test server. */
function serverKey(key: string) {
  (getConfig() as { STRIPE_SECRET_KEY?: string }).STRIPE_SECRET_KEY = key;
}

/** The same event in the given mode. */
function inMode(payload: string, livemode: boolean): string {
  return JSON.stringify({ ...(JSON.parse(payload) as object), livemode });
}

/** A creator's connected account, not yet onboarded, as this app recorded it. */
async function pendingPayoutAccount(accountId: string) {
  const creator = await createTestUser();
  const stamp = new Date().toISOString();
  await getDb()
    .insertInto("payout_accounts")
    .values({
      user_id: creator.user.id,
      provider: "stripe",
      account_id: accountId,
      status: "pending",
      payouts_enabled: 0,
      transfers_enabled: 0,
      details_submitted: 0,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
}

/** account.updated of an onboarded account, delivered to the Connect endpoint. */
function accountUpdated(accountId: string, livemode: boolean): string {
  const account = {
    id: accountId,
    object: "account",
    type: "express",
    charges_enabled: true,
    payouts_enabled: true,
    details_submitted: true,
    capabilities: { transfers: "active" },
    requirements: { currently_due: [], past_due: [], disabled_reason: null },
  };
  return inMode(
    stripeEvent("account.updated", account, undefined, { account: accountId }),
    livemode,
  );
}

/** A Stripe checkout of one listing, paid at Stripe; its webhook not yet delivered. */
let buyers = 0;
const paidSession = () => paidStripeSession(`live-mode-${++buyers}@example.com`);

describe("webhook events of the other mode than the server's", () => {
  it("a live server answers a test-mode Connect event 200 ignored, changes nothing, and takes the live one", async () => {
    const accountId = "acct_1LiveCreator000000000";
    await pendingPayoutAccount(accountId);
    const before = await eventsRecorded();

    expect(await deliver(accountUpdated(accountId, false), CONNECT_SECRET)).toEqual(
      webhookIgnored(expect.stringMatching(/test-mode event.*live/i)),
    );
    expect(await payoutStatus(accountId)).toBe("pending");
    expect(await eventsRecorded()).toBe(before);

    expect(await deliver(accountUpdated(accountId, true), CONNECT_SECRET)).toEqual(
      WEBHOOK_PROCESSED,
    );
    expect(await payoutStatus(accountId)).toBe("active");
  });

  it("a live server answers a test-mode platform event 200 ignored and leaves the order unpaid", async () => {
    // The Stripe mock takes test keys only: the checkout is made by a test server.
    serverKey(TEST_KEY);
    const { session, email } = await paidSession();
    serverKey(LIVE_KEY);
    const before = await eventsRecorded();
    const completed = stripeEvent("checkout.session.completed", session);

    expect(await deliver(inMode(completed, false), PLATFORM_SECRET)).toMatchObject(
      webhookIgnored(),
    );
    expect(await orderStatus(email)).toBe("pending");
    expect(await eventsRecorded()).toBe(before);

    expect(await deliver(inMode(completed, true), PLATFORM_SECRET)).toEqual(WEBHOOK_PROCESSED);
    expect(await orderStatus(email)).toBe("paid");
  });

  it("a test server answers a live Connect event 200 ignored and changes nothing", async () => {
    serverKey(TEST_KEY);
    const accountId = "acct_1TestServerCreator0000";
    await pendingPayoutAccount(accountId);
    const before = await eventsRecorded();

    expect(await deliver(accountUpdated(accountId, true), CONNECT_SECRET)).toEqual(
      webhookIgnored(expect.stringMatching(/live-mode event.*test mode/i)),
    );
    expect(await payoutStatus(accountId)).toBe("pending");
    expect(await eventsRecorded()).toBe(before);

    expect(await deliver(accountUpdated(accountId, false), CONNECT_SECRET)).toMatchObject({
      status: 200,
      body: { outcome: "processed" },
    });
    expect(await payoutStatus(accountId)).toBe("active");
  });

  it("checks the signature first: an event of the other mode with a bad signature is still a 400", async () => {
    const accountId = "acct_1BadSignature00000000";
    await pendingPayoutAccount(accountId);
    const before = await eventsRecorded();
    for (const livemode of [false, true]) {
      expect(
        await deliver(accountUpdated(accountId, livemode), "whsec_not_the_endpoints_secret"),
      ).toEqual({ status: 400, body: { message: "Invalid webhook signature" } });
    }
    expect(await payoutStatus(accountId)).toBe("pending");
    expect(await eventsRecorded()).toBe(before);
  });

  it("still refuses a verified event that does not say its mode", async () => {
    const accountId = "acct_1NoModeCreator00000000";
    await pendingPayoutAccount(accountId);
    const { livemode: _livemode, ...withoutMode } = JSON.parse(accountUpdated(accountId, true)) as {
      livemode: boolean;
    };
    expect(await deliver(JSON.stringify(withoutMode), CONNECT_SECRET)).toEqual(
      webhookRefused(expect.stringMatching(/live or test mode/)),
    );
    expect(await payoutStatus(accountId)).toBe("pending");
  });
});
