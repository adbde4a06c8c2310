import type { ApiRoute } from "~/infra/api-entry.server";
import { adminPayouts } from "~/features/payouts/transfers/admin.procedures.server";
import { creatorEarnings, creatorPayouts } from "~/features/payouts/ledger/procedures.server";
import { startPayoutOnboarding } from "~/features/payouts/transfers/procedures.server";

/**
 * The /api endpoints of payouts: the creator's earnings and payout account, and the admin's
 * payouts view. The table (app/routes/api+/api-route-table.server.ts) puts every feature's entries
 * together, in a fixed order of features; the router answers from it and the OpenAPI document
 * describes it.
 */
export const PAYOUTS_API: readonly ApiRoute[] = [
  {
    method: "GET",
    path: "/api/token-earnings",
    summary: "The signed-in creator's share of each sale.",
    procedure: creatorEarnings,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/token-payouts",
    summary:
      "The signed-in creator's payout account (provider, state), balance (earned, owed, transferred, held, reversed, in dollars) and transfers.",
    procedure: creatorPayouts,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "POST",
    path: "/api/payouts/onboard",
    summary:
      "Set up payouts: the creator's payout account (made at the provider the first time, in `country`: the creator's two-letter country code, required then) and a one-time link to its onboarding (Stripe's hosted pages, or the in-app test onboarding page when Stripe is not configured). A country the platform cannot pay is a 400 whose message says so; nothing is created. When Stripe itself refuses the account or the link, a 422 whose message is Stripe's own reason; 502 when it cannot be reached.",
    procedure: startPayoutOnboarding,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [400, 422, 502],
  },
  {
    method: "GET",
    path: "/api/admin/payouts",
    summary:
      "Every creator's payout account state and balance: earned, owed, transferred, held and reversed (super admin only).",
    procedure: adminPayouts,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
];
