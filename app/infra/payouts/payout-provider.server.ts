import type { PayoutAccountStatus, PayoutProviderId } from "#db/schema";

/**
 * A payout provider holds the creators' payout accounts and moves their
 * shares to them. Two implementations, chosen from the configuration: Stripe
 * Connect (Express accounts, "separate charges and transfers") when
 * STRIPE_SECRET_KEY is set (stripe-connect.server.ts), otherwise the built-in
 * test payout provider (test-payouts.server.ts), whose books are tables in
 * this app's database.
 *
 * Every call that moves money takes an idempotency key: the same key sent
 * again (a retried job, a process that died after the call) answers the
 * first result and moves nothing twice, but only for 24 hours at Stripe. So a
 * transfer or reversal is first looked for at the provider (findTransfer,
 * findReversal, by the ids in its metadata) and recorded when it exists.
 *
 * Both providers follow Stripe's country rules (app/lib/payout-countries.ts):
 * an account is made in the creator's country, under the recipient service
 * agreement when that is not the platform's country.
 */

/**
 * The provider answered and refused a call. `request`: it refused what was
 * asked (Stripe's invalid_request_error: a country it will not open an
 * account in, an account it will not link), and `reason` is its own sentence,
 * safe to show the creator. `platform`: it refused the platform itself (its
 * key, its permissions, its rate limit), which the creator can do nothing
 * about; `reason` is then for the log only (it may quote part of the key).
 * A provider that cannot be reached, or fails on its side (5xx), throws
 * anything else.
 */
export class PayoutProviderRefusal extends Error {
  constructor(
    readonly provider: string,
    readonly kind: "request" | "platform",
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${provider} refused the call (${kind}): ${reason}`, options);
    this.name = "PayoutProviderRefusal";
  }
}

/** The platform's Stripe account: its country (STRIPE_PLATFORM_COUNTRY) and settlement currency (CURRENCY). */
export interface PayoutPlatform {
  country: string;
  currency: string;
}

/** What the provider says about an account right now. */
export interface PayoutAccountState {
  accountId: string;
  status: PayoutAccountStatus;
  /** The creator can withdraw to a bank account (Stripe's payouts_enabled). */
  payoutsEnabled: boolean;
  /** Transfers to the account can be sent (the transfers capability is active). */
  transfersEnabled: boolean;
  /** The creator finished the onboarding form. */
  detailsSubmitted: boolean;
}

export interface NewPayoutAccount {
  userId: string;
  email: string;
  /** The creator's country (ISO 3166-1 alpha-2), one the platform can pay. */
  country: string;
}

/** The metadata every share's transfer carries: how a transfer of a share is found again. */
export interface ShareTransferLookup {
  transferGroup: string;
  earningId: string;
}

/** A reversal of a share's transfer reaching `reversedTotalCents` in all (its metadata names both). */
export interface ShareReversalLookup {
  transferId: string;
  earningId: string;
  reversedTotalCents: number;
}

export interface OnboardingLinkRequest {
  accountId: string;
  /** Where the provider sends the creator back when onboarding is done (or left). */
  returnUrl: string;
  /** Where the provider sends the creator when the link expired or was used: a URL that makes a fresh link. */
  refreshUrl: string;
}

export interface TransferRequest {
  accountId: string;
  amountCents: number;
  currency: string;
  /** The order id: every transfer of one order shares it. */
  transferGroup: string;
  /** The charge that paid for the order (Stripe's source_transaction); null for the test provider. */
  sourceTransaction: string | null;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface TransferReversalRequest {
  transferId: string;
  amountCents: number;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface PayoutProvider {
  readonly id: PayoutProviderId;
  createAccount(account: NewPayoutAccount): Promise<PayoutAccountState>;
  retrieveAccount(accountId: string): Promise<PayoutAccountState>;
  /** A one-time link to the provider's onboarding (Stripe's hosted pages, or the in-app test onboarding page). */
  onboardingUrl(request: OnboardingLinkRequest): Promise<string>;
  /** A link to the creator's own dashboard at the provider, or null when it has none (the test provider). */
  dashboardUrl(accountId: string): Promise<string | null>;
  transfer(request: TransferRequest): Promise<{ transferId: string }>;
  reverseTransfer(request: TransferReversalRequest): Promise<{ reversalId: string }>;
  /** A transfer already made for the share (metadata earning_id, optionally of a given kind), or null. */
  findTransfer(
    lookup: ShareTransferLookup & { kind?: string },
  ): Promise<{ transferId: string; amountCents: number } | null>;
  /** A reversal already made of the share's transfer reaching that total, or null. */
  findReversal(lookup: ShareReversalLookup): Promise<{ reversalId: string } | null>;
}

/** The state of an account from its three facts (shared by both providers). */
export function payoutAccountStatus(facts: {
  detailsSubmitted: boolean;
  transfersEnabled: boolean;
  disabledReason?: string | null;
}): PayoutAccountStatus {
  if (facts.transfersEnabled && !facts.disabledReason) return "active";
  if (!facts.detailsSubmitted) return "pending";
  return "restricted";
}
