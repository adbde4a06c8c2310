import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import Stripe from "stripe";
import { createStripeClient } from "~/infra/payments/stripe-checkout.server";

/**
 * Stripe renders each webhook event in the API version of the endpoint it is
 * sent to, so the endpoints must be created with the version the app's own
 * API calls use: the one the `stripe` library is pinned to. The docs name
 * that version; this test fails when the library (or the client's settings)
 * moves to another one and the docs still name the old one.
 */
const versionsSent: (string | null)[] = [];
const server = setupServer(
  http.get("https://api.stripe.com/v1/balance", ({ request }) => {
    versionsSent.push(request.headers.get("Stripe-Version"));
    return HttpResponse.json({ object: "balance", available: [], pending: [], livemode: false });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

const doc = (name: string) => readFileSync(path.join(process.cwd(), "docs", name), "utf8");

describe("the API version of Stripe's webhook endpoints", () => {
  it("is the version the app's Stripe client sends, and the one the docs tell to create the endpoints with", async () => {
    await createStripeClient("sk_test_api_version").balance.retrieve();
    expect(versionsSent).toEqual([Stripe.API_VERSION]);

    const pinned = `\`${Stripe.API_VERSION}\``;
    expect(doc("integrations.md")).toContain(`with API version **${pinned}**`);
    expect(doc("payouts.md")).toContain(`with API version **${pinned}**`);
  });
});
