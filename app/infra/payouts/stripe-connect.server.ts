import Stripe from "stripe";
import { createStripeClient } from "~/infra/payments/stripe-checkout.server";
import type {
  NewPayoutAccount,
  OnboardingLinkRequest,
  PayoutAccountState,
  PayoutPlatform,
  PayoutProvider,
  ShareReversalLookup,
  ShareTransferLookup,
  TransferRequest,
  TransferReversalRequest,
} from "~/infra/payouts/payout-provider.server";
import { PayoutProviderRefusal, payoutAccountStatus } from "~/infra/payouts/payout-provider.server";
import { payoutCountryRule } from "~/lib/payout-countries";

/**
 * Stripe Connect with Express accounts, "separate charges and transfers": the
 * buyer pays the platform (Stripe Checkout), then each creator's share is a
 * transfer to the creator's connected account, tied to the order's charge
 * (source_transaction) and grouped by the order id (transfer_group). A refund
 * or a lost dispute takes a share back with a transfer reversal.
 *
 * A refusal of an account, an onboarding or a dashboard link is thrown as a
 * PayoutProviderRefusal (stripeRefusalOf): the creator sees Stripe's own
 * reason for refusing what was asked; only a connection failure or an error
 * on Stripe's side reads as "could not be reached".
 */
export class StripeConnectProvider implements PayoutProvider {
  readonly id = "stripe" as const;
  private readonly stripe: Stripe;

  constructor(
    secretKey: string,
    private readonly platform: PayoutPlatform = { country: "US", currency: "usd" },
  ) {
    this.stripe = createStripeClient(secretKey);
  }

  /**
   * One Express account per user, in the creator's country: under the
   * recipient service agreement when that is not the platform's (Stripe's
   * cross-border payouts). A retried request answers the account the first one made.
   */
  async createAccount(account: NewPayoutAccount): Promise<PayoutAccountState> {
    const rule = payoutCountryRule(this.platform.country, account.country);
    if (!rule.payable) throw new PayoutProviderRefusal("Stripe", "request", rule.reason);
    const created = await refusalsOf(() =>
      this.stripe.accounts.create(
        {
          type: "express",
          country: account.country,
          email: account.email,
          capabilities: { transfers: { requested: true } },
          ...(rule.serviceAgreement === "recipient"
            ? { tos_acceptance: { service_agreement: "recipient" } }
            : {}),
          metadata: { user_id: account.userId, country: account.country },
        },
        { idempotencyKey: `payout-account-${account.userId}-${account.country}` },
      ),
    );
    return accountStateOf(created);
  }

  async retrieveAccount(accountId: string): Promise<PayoutAccountState> {
    return accountStateOf(await refusalsOf(() => this.stripe.accounts.retrieve(accountId)));
  }

  /** A one-time link to Stripe's hosted onboarding (it expires after a few minutes; refreshUrl makes a new one). */
  async onboardingUrl(request: OnboardingLinkRequest): Promise<string> {
    const link = await refusalsOf(() =>
      this.stripe.accountLinks.create({
        account: request.accountId,
        type: "account_onboarding",
        return_url: request.returnUrl,
        refresh_url: request.refreshUrl,
      }),
    );
    return link.url;
  }

  /** A one-time login link to the creator's Express Dashboard. */
  async dashboardUrl(accountId: string): Promise<string> {
    const link = await refusalsOf(() => this.stripe.accounts.createLoginLink(accountId));
    return link.url;
  }

  async transfer(request: TransferRequest): Promise<{ transferId: string }> {
    const transfer = await this.stripe.transfers.create(
      {
        amount: request.amountCents,
        currency: request.currency,
        destination: request.accountId,
        transfer_group: request.transferGroup,
        // Tied to the charge, the transfer can go out before the charge's funds are available.
        ...(request.sourceTransaction !== null
          ? { source_transaction: request.sourceTransaction }
          : {}),
        metadata: request.metadata,
      },
      { idempotencyKey: request.idempotencyKey },
    );
    return { transferId: transfer.id };
  }

  async reverseTransfer(request: TransferReversalRequest): Promise<{ reversalId: string }> {
    const reversal = await this.stripe.transfers.createReversal(
      request.transferId,
      { amount: request.amountCents, metadata: request.metadata },
      { idempotencyKey: request.idempotencyKey },
    );
    return { reversalId: reversal.id };
  }

  /** The order's transfers (transfer_group), the share's one by its metadata (Stripe forgets idempotency keys after 24 hours). */
  async findTransfer(
    lookup: ShareTransferLookup & { kind?: string },
  ): Promise<{ transferId: string; amountCents: number } | null> {
    for await (const transfer of this.stripe.transfers.list({
      transfer_group: lookup.transferGroup,
      limit: 100,
    })) {
      if (transfer.metadata?.earning_id !== lookup.earningId) continue;
      if ((transfer.metadata?.kind ?? "share") !== (lookup.kind ?? "share")) continue;
      return { transferId: transfer.id, amountCents: transfer.amount };
    }
    return null;
  }

  async findReversal(lookup: ShareReversalLookup): Promise<{ reversalId: string } | null> {
    for await (const reversal of this.stripe.transfers.listReversals(lookup.transferId, {
      limit: 100,
    })) {
      if (
        reversal.metadata?.earning_id === lookup.earningId &&
        reversal.metadata?.reversed_total_cents === String(lookup.reversedTotalCents)
      ) {
        return { reversalId: reversal.id };
      }
    }
    return null;
  }
}

/**
 * What a Stripe error says about a call, as the payout provider's refusal.
 * Stripe's invalid_request_error answered 400 or 404 (the library's
 * StripeInvalidRequestError) refused what was asked, for the reason in its
 * message. An authentication (401, whose type is also invalid_request_error
 * and whose message quotes part of the key), permission (403), rate-limit or
 * idempotency error refused the platform. Null for a connection failure or an
 * error on Stripe's side (5xx, StripeAPIError), and for anything that is not
 * a Stripe error: the provider could not be reached (or this is a bug).
 */
export function stripeRefusalOf(error: unknown): PayoutProviderRefusal | null {
  if (!(error instanceof Stripe.errors.StripeError)) return null;
  if (error instanceof Stripe.errors.StripeInvalidRequestError)
    return new PayoutProviderRefusal("Stripe", "request", error.message, { cause: error });
  if (
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    error instanceof Stripe.errors.StripeIdempotencyError
  )
    return new PayoutProviderRefusal("Stripe", "platform", error.message, { cause: error });
  return null;
}

/** Runs a call to Stripe, throwing its refusal as a PayoutProviderRefusal (stripeRefusalOf). */
async function refusalsOf<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw stripeRefusalOf(error) ?? error;
  }
}

/** The state of a Stripe account (a retrieved account, or the object of an `account.updated` event). */
export function accountStateOf(account: Stripe.Account): PayoutAccountState {
  const transfersEnabled = account.capabilities?.transfers === "active";
  const detailsSubmitted = account.details_submitted === true;
  return {
    accountId: account.id,
    status: payoutAccountStatus({
      detailsSubmitted,
      transfersEnabled,
      disabledReason: account.requirements?.disabled_reason ?? null,
    }),
    payoutsEnabled: account.payouts_enabled === true,
    transfersEnabled,
    detailsSubmitted,
  };
}
