import { describe, expect, it } from "vitest";
import { stripeEvent, stripeMock } from "#tests/mocks/stripe";
import {
  deliverStripeWebhook as deliver,
  orderStatusByEmail as orderStatus,
  paidStripeSession,
  payoutAccountStatus as accountStatus,
  startStripeOnboarding,
  stripeAccountOf,
  setUpStripeMock,
  webhookEventsRecorded as eventsRecorded,
} from "#tests/setup/stripe";
import { WEBHOOK_PROCESSED, webhookIgnored, webhookRefused } from "~/features/market/test-support";

/**
 * Each Stripe event is taken for what the secret that verified it says it is:
 * the platform endpoint's events (its secret) are the platform's own and name
 * no connected account; the Connect endpoint's events (its secret) happened on
 * a creator's connected account and name it. Anything else is refused (400)
 * and changes nothing. Real signatures, made by the stripe library.
 */
const WEBHOOK_SECRET = "whsec_routing_platform";
const CONNECT_SECRET = "whsec_routing_connect";
setUpStripeMock({
  key: "sk_test_selfie_routing",
  webhookSecret: WEBHOOK_SECRET,
  connectSecret: CONNECT_SECRET,
});

/** A Stripe checkout of one listing, paid at Stripe; its webhook not yet delivered. */
let buyers = 0;
const paidSession = () => paidStripeSession(`routing-${++buyers}@example.com`);

/** A creator's Express account, created at Stripe and not yet onboarded. */
async function pendingAccount() {
  const { creator } = await startStripeOnboarding();
  return stripeAccountOf(creator.user.id);
}

describe("POST /api/webhooks/stripe routes each event by the secret that verified it", () => {
  it("the platform secret: an event naming a connected account is refused and changes nothing", async () => {
    const { session, email } = await paidSession();
    const before = await eventsRecorded();
    const named = stripeEvent("checkout.session.completed", session, undefined, {
      account: "acct_1SomeCreator0000000000",
    });
    expect(await deliver(named, WEBHOOK_SECRET)).toEqual(
      webhookRefused(expect.stringMatching(/platform endpoint.*connected account/i)),
    );
    expect(await orderStatus(email)).toBe("pending");
    expect(await eventsRecorded()).toBe(before);

    const own = stripeEvent("checkout.session.completed", session);
    expect(await deliver(own, WEBHOOK_SECRET)).toEqual(WEBHOOK_PROCESSED);
    expect(await orderStatus(email)).toBe("paid");
  });

  it("the Connect secret: an event without a connected account is refused, and a connected account's checkout is not ours", async () => {
    const { session, email } = await paidSession();
    const unnamed = stripeEvent("checkout.session.completed", session);
    expect(await deliver(unnamed, CONNECT_SECRET)).toEqual(
      webhookRefused(expect.stringMatching(/connect endpoint.*connected account/i)),
    );
    expect(await orderStatus(email)).toBe("pending");

    // A session on a creator's own account, whatever its metadata says, does not pay the platform's order.
    const theirs = stripeEvent("checkout.session.completed", session, undefined, {
      account: "acct_1SomeCreator0000000000",
    });
    expect(await deliver(theirs, CONNECT_SECRET)).toEqual(webhookIgnored());
    expect(await orderStatus(email)).toBe("pending");
  });

  it("account.updated counts only from the Connect endpoint, and only for the account that sent it", async () => {
    const accountId = await pendingAccount();
    const account = stripeMock.onboard(accountId);

    // From the platform endpoint it is the platform's own account: acknowledged, nothing changes.
    expect(await deliver(stripeEvent("account.updated", account), WEBHOOK_SECRET)).toEqual(
      webhookIgnored(),
    );
    expect(await accountStatus(accountId)).toBe("pending");
    // Sent by one connected account about another: refused.
    const other = stripeEvent("account.updated", account, undefined, {
      account: "acct_1AnotherAccount00000000",
    });
    expect(await deliver(other, CONNECT_SECRET)).toMatchObject(
      webhookRefused(expect.stringMatching(/another account/i)),
    );
    expect(await accountStatus(accountId)).toBe("pending");

    const own = stripeEvent("account.updated", account, undefined, { account: accountId });
    expect(await deliver(own, CONNECT_SECRET)).toEqual(WEBHOOK_PROCESSED);
    expect(await accountStatus(accountId)).toBe("active");
  });

  it("a signature made more than Stripe's 5-minute tolerance ago is refused; one within it is taken", async () => {
    const { session, email } = await paidSession();
    const event = stripeEvent("checkout.session.completed", session);
    const secondsAgo = (seconds: number) => Math.floor(Date.now() / 1000) - seconds;
    expect(await deliver(event, WEBHOOK_SECRET, secondsAgo(6 * 60))).toEqual(
      webhookRefused("Invalid webhook signature"),
    );
    expect(await orderStatus(email)).toBe("pending");
    expect(await deliver(event, WEBHOOK_SECRET, secondsAgo(4 * 60))).toEqual(WEBHOOK_PROCESSED);
    expect(await orderStatus(email)).toBe("paid");
  });

  it("a live-mode event on a test server is acknowledged as ignored and changes nothing", async () => {
    const { session, email } = await paidSession();
    const live = JSON.stringify({
      ...JSON.parse(stripeEvent("checkout.session.completed", session)),
      livemode: true,
    });
    const before = await eventsRecorded();
    expect(await deliver(live, WEBHOOK_SECRET)).toEqual(
      webhookIgnored(expect.stringMatching(/live-mode event.*test mode/i)),
    );
    expect(await orderStatus(email)).toBe("pending");
    expect(await eventsRecorded()).toBe(before);
    const unsaid = JSON.parse(stripeEvent("checkout.session.completed", session));
    delete unsaid.livemode;
    expect((await deliver(JSON.stringify(unsaid), WEBHOOK_SECRET)).status).toBe(400);
    expect(await orderStatus(email)).toBe("pending");
  });
});
