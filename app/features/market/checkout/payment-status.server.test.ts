import { describe, expect, it } from "vitest";
import { loader as marketplacePage } from "~/routes/_market+/marketplace";
import { paymentStatus } from "~/features/market/checkout/payment-status.procedures.server";
import { callContext } from "~/web/request-context.server";
import { invoke } from "~/infra/procedure.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { stripeMock } from "#tests/mocks/stripe";
import { newListingCheckout, setUpStripeMock } from "#tests/setup/stripe";
import { PROVIDER_CHECK_INTERVAL_MS } from "~/features/market/checkout/payment-status.server";
import { paymentStatusOf } from "#tests/setup/test-checkout";
import { testTies } from "#tests/setup/ties";

setUpStripeMock({ key: "sk_test_selfie_studio" });

/** A pending order with a Stripe Checkout Session (the real stripe library, answered by msw). */
const stripeOrder = () => newListingCheckout({ name: "Pat Poller", email: "pat@example.com" });

const retrievesOf = (sessionId: string) =>
  stripeMock.requests.filter(
    (request) => request.method === "GET" && request.path === `/v1/checkout/sessions/${sessionId}`,
  ).length;

const poll = async (sessionId: string) => {
  const response = await paymentStatusOf(sessionId);
  expect(response.status).toBe(200);
  return (await response.json()) as { paymentStatus: string; success: boolean };
};

/** The status as a poll sees it at a given time. */
const pollAt = (sessionId: string, now: Date) =>
  invoke(
    paymentStatus,
    null,
    { sessionId },
    {
      ...callContext(makeRequest(`/api/payment-status/${sessionId}`), {
        ties: testTies,
        clientIp: "192.0.2.60",
      }),
      now,
    },
  );

describe("payment status polls of a pending Stripe order", () => {
  it("ask Stripe at most once per interval and answer from the database in between", async () => {
    const sessionId = await stripeOrder();
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => poll(sessionId)));
    for (let i = 0; i < 10; i++) concurrent.push(await poll(sessionId));
    expect(concurrent.every((status) => status.paymentStatus === "processing")).toBe(true);
    expect(retrievesOf(sessionId)).toBe(1);

    // Paid at Stripe: polls within the interval still answer from the database, without asking.
    stripeMock.complete(sessionId);
    expect((await poll(sessionId)).paymentStatus).toBe("processing");
    expect(retrievesOf(sessionId)).toBe(1);

    // Once the interval has passed, the next poll asks again and sees the payment.
    const later = await pollAt(sessionId, new Date(Date.now() + PROVIDER_CHECK_INTERVAL_MS + 1000));
    expect(later).toMatchObject({ paymentStatus: "completed", success: true });
    expect(retrievesOf(sessionId)).toBe(2);
    // Paid orders never ask again.
    await poll(sessionId);
    expect(retrievesOf(sessionId)).toBe(2);
  });

  it("the buyer's return from Stripe always asks, even right after a poll", async () => {
    const sessionId = await stripeOrder();
    await poll(sessionId);
    expect(retrievesOf(sessionId)).toBe(1);
    stripeMock.complete(sessionId);
    const page = await (
      await callRoute(
        marketplacePage,
        makeRequest(`/marketplace?session_id=${sessionId}&success=true`),
      )
    ).json();
    expect(page.purchase).toMatchObject({ success: true, paymentStatus: "completed" });
    expect(retrievesOf(sessionId)).toBe(2);
  });
});
