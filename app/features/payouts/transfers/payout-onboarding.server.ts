import type { DB } from "~/infra/db.server";
import { HttpError, badRequest } from "~/infra/errors.server";
import {
  PayoutProviderRefusal,
  type PayoutPlatform,
  type PayoutProvider,
} from "~/infra/payouts/payout-provider.server";
import { normalizeCountry, payoutCountryRule } from "~/lib/payout-countries";
import {
  ensurePayoutAccount,
  payoutAccountOf,
} from "~/features/payouts/transfers/payout-accounts.server";

const PROVIDER_UNREACHABLE =
  "The payout provider could not be reached. Nothing was changed; please try again later.";

/**
 * A call to the payout provider, whose failure is an answer with a message,
 * never a 500: when the provider refused what was asked (Stripe's
 * invalid_request_error), a 422 with its own reason; when it refused the
 * platform itself (its key or permissions), a 502 that says so without
 * Stripe's words; when it could not be reached or failed on its side, a 502.
 */
export async function providerCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    console.warn(`${what} failed at the payout provider:`, error);
    if (error instanceof PayoutProviderRefusal && error.kind === "request")
      throw new HttpError(422, `${error.provider} refused this: ${error.reason}`);
    if (error instanceof PayoutProviderRefusal)
      throw new HttpError(
        502,
        `${error.provider} refused this platform's request (its settings need the team's attention). Nothing was changed; please try again later.`,
      );
    throw new HttpError(502, PROVIDER_UNREACHABLE);
  }
}

/** Where the provider sends the creator back: the Payouts page, which refreshes the account's state. */
function payoutReturnUrl(origin: string): string {
  return new URL("/payouts?onboarding=return", origin).toString();
}

/** Where an expired or used onboarding link leads: a page whose Continue button (a POST) makes a fresh one. */
function payoutRefreshUrl(origin: string): string {
  return new URL("/payouts/onboard", origin).toString();
}

/** What onboarding needs: the database, the configured payout provider, the platform, the clock and the origin links go back to. */
export interface OnboardingDeps {
  db: DB;
  provider: PayoutProvider;
  platform: PayoutPlatform;
  now: Date;
  origin: string;
}

/**
 * The creator's payout account (created at the provider the first time, in
 * the country the creator chose) and a one-time link to its onboarding:
 * Stripe's hosted pages, or the in-app test onboarding page. A country the
 * platform cannot pay is refused with a sentence that says so (400), before
 * anything is created; a refusal by the provider is a 422 with its reason, a
 * provider that cannot be reached a 502 (providerCall).
 */
export async function startOnboarding(
  deps: OnboardingDeps,
  creator: { id: string; email: string },
  chosenCountry: string | undefined,
): Promise<{ url: string }> {
  const { db, provider, platform } = deps;
  const existing = await payoutAccountOf(db, creator.id, provider.id);
  let country = existing?.country ?? platform.country;
  if (!existing) {
    if (chosenCountry === undefined || chosenCountry.trim() === "")
      throw badRequest("Choose the country you live in, where your bank account is.", {
        country: ["Choose your country"],
      });
    const chosen = normalizeCountry(chosenCountry);
    if (!chosen)
      throw badRequest(`${chosenCountry} is not a country code (two letters, such as US or FR).`, {
        country: ["Not a country code"],
      });
    const rule = payoutCountryRule(platform.country, chosen);
    if (!rule.payable)
      throw badRequest(`${rule.reason} Nothing was set up.`, { country: [rule.reason] });
    country = chosen;
  }
  return providerCall("Starting payout onboarding", async () => {
    const account = await ensurePayoutAccount(
      db,
      provider,
      { id: creator.id, email: creator.email, country },
      deps.now,
    );
    const url = await provider.onboardingUrl({
      accountId: account.account_id,
      returnUrl: payoutReturnUrl(deps.origin),
      refreshUrl: payoutRefreshUrl(deps.origin),
    });
    return { url };
  });
}
