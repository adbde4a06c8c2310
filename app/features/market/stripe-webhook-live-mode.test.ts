import { describe, expect, it, vi } from "vitest";
import { getDb } from "~/infra/db.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { signPayload, stripeEvent } from "#tests/mocks/stripe";
import { apiRoute } from "#tests/setup/api-routes";

const { action: webhookRoute } = apiRoute("/api/webhooks/stripe");

/**
 * A live server (its STRIPE_SECRET_KEY is a live key, sk_live_ or rk_live_)
 * takes only live-mode events: a test-mode event, even one signed with the
 * right secret, is refused (400) and changes nothing.
 */
const CONNECT_SECRET = "whsec_live_connect";
vi.hoisted(() => {
  process.env.STRIPE_SECRET_KEY = "sk_live_selfie_studio_live_server";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_live_platform";
  process.env.STRIPE_CONNECT_WEBHOOK_SECRET = "whsec_live_connect";
});

async function deliver(payload: string, secret: string) {
  const response = await callRoute(
    webhookRoute,
    makeRequest("/api/webhooks/stripe", {
      method: "POST",
      body: payload,
      headers: {
        "Content-Type": "application/json",
        "Stripe-Signature": signPayload(payload, secret),
      },
      origin: "none",
    }),
  );
  return {
    status: response.status,
    body: (await response.json()) as { received?: boolean; outcome?: string; message?: string },
  };
}

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
  return JSON.stringify({
    ...JSON.parse(stripeEvent("account.updated", account, undefined, { account: accountId })),
    livemode,
  });
}

describe("a live server and test-mode events", () => {
  it("refuses a test-mode event with 400 and takes the same event in live mode", async () => {
    const creator = await createTestUser();
    const accountId = "acct_1LiveCreator000000000";
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
    const status = async () =>
      (
        await getDb()
          .selectFrom("payout_accounts")
          .select("status")
          .where("account_id", "=", accountId)
          .executeTakeFirstOrThrow()
      ).status;

    expect(await deliver(accountUpdated(accountId, false), CONNECT_SECRET)).toEqual({
      status: 400,
      body: { message: expect.stringMatching(/test-mode event.*live/i) },
    });
    expect(await status()).toBe("pending");
    expect(await getDb().selectFrom("webhook_events").selectAll().execute()).toHaveLength(0);

    expect(await deliver(accountUpdated(accountId, true), CONNECT_SECRET)).toEqual({
      status: 200,
      body: { received: true, outcome: "processed" },
    });
    expect(await status()).toBe("active");
  });
});
