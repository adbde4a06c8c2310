import { sql } from "kysely";
import type { DB } from "~/infra/db.server";
import { newId } from "~/infra/ids.server";
import {
  payoutAccountStatus,
  type NewPayoutAccount,
  type OnboardingLinkRequest,
  type PayoutAccountState,
  type PayoutPlatform,
  type PayoutProvider,
  type ShareReversalLookup,
  type ShareTransferLookup,
  type TransferRequest,
  type TransferReversalRequest,
} from "~/infra/payouts/payout-provider.server";
import { payoutCountryRule } from "~/lib/payout-countries";

/**
 * The built-in test payout provider: with no Stripe key configured, creators
 * get a test payout account kept in this app's own database (what Stripe
 * keeps on its side), onboarded on the in-app page /payouts/test-onboarding,
 * which is marked TEST MODE. No money moves; transfers and reversals are rows
 * in test_payout_movements, each with a unique idempotency key, so a retried
 * call answers the first result exactly as Stripe does. It applies Stripe's
 * country rules: an account in a country the platform cannot pay is refused,
 * one in another payable country is under the recipient service agreement,
 * and a transfer is refused in any currency but the platform's, or to an
 * account in another country under the full agreement.
 */
export const TEST_ACCOUNT_PREFIX = "tacct_";
export const TEST_ONBOARDING_PATH = "/payouts/test-onboarding";

export class TestPayoutProvider implements PayoutProvider {
  readonly id = "test" as const;

  constructor(
    private readonly db: DB,
    private readonly platform: PayoutPlatform = { country: "US", currency: "usd" },
  ) {}

  async createAccount(account: NewPayoutAccount): Promise<PayoutAccountState> {
    const rule = payoutCountryRule(this.platform.country, account.country);
    if (!rule.payable) throw new Error(rule.reason);
    const id = `${TEST_ACCOUNT_PREFIX}${newId()}`;
    await this.db
      .insertInto("test_payout_accounts")
      .values({
        id,
        email: account.email,
        onboarded_at: null,
        created_at: new Date().toISOString(),
        country: account.country,
        service_agreement: rule.serviceAgreement,
      })
      .execute();
    return this.retrieveAccount(id);
  }

  async retrieveAccount(accountId: string): Promise<PayoutAccountState> {
    const row = await this.db
      .selectFrom("test_payout_accounts")
      .selectAll()
      .where("id", "=", accountId)
      .executeTakeFirst();
    if (!row) throw new Error(`No such test payout account: ${accountId}`);
    const onboarded = row.onboarded_at !== null;
    return {
      accountId,
      status: payoutAccountStatus({ detailsSubmitted: onboarded, transfersEnabled: onboarded }),
      payoutsEnabled: onboarded,
      transfersEnabled: onboarded,
      detailsSubmitted: onboarded,
    };
  }

  /** The in-app onboarding page on the same site as the return URL. */
  async onboardingUrl(request: OnboardingLinkRequest): Promise<string> {
    return new URL(TEST_ONBOARDING_PATH, request.returnUrl).toString();
  }

  async dashboardUrl(): Promise<null> {
    return null;
  }

  async transfer(request: TransferRequest): Promise<{ transferId: string }> {
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0)
      throw new Error(`Not a transfer amount: ${request.amountCents}`);
    const account = await this.retrieveAccount(request.accountId);
    if (!account.transfersEnabled)
      throw new Error(`Test payout account ${request.accountId} cannot receive transfers yet`);
    if (request.currency !== this.platform.currency)
      throw new Error(
        `The platform holds no ${request.currency}: transfers are in ${this.platform.currency}`,
      );
    const row = await this.db
      .selectFrom("test_payout_accounts")
      .select(["country", "service_agreement"])
      .where("id", "=", request.accountId)
      .executeTakeFirstOrThrow();
    if (
      (row.country ?? this.platform.country) !== this.platform.country &&
      row.service_agreement !== "recipient"
    ) {
      throw new Error(
        `Funds can't be sent to test payout account ${request.accountId} in ${row.country}: it is not under the recipient service agreement`,
      );
    }
    const id = `test_tr_${newId()}`;
    await this.db
      .insertInto("test_payout_movements")
      .values({
        id,
        account_id: request.accountId,
        kind: "transfer",
        amount_cents: request.amountCents,
        transfer_id: null,
        transfer_group: request.transferGroup,
        idempotency_key: request.idempotencyKey,
        created_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.column("idempotency_key").doNothing())
      .execute();
    const first = await this.movementByKey(request.idempotencyKey);
    return { transferId: first.id };
  }

  async reverseTransfer(request: TransferReversalRequest): Promise<{ reversalId: string }> {
    const transfer = await this.db
      .selectFrom("test_payout_movements")
      .selectAll()
      .where("id", "=", request.transferId)
      .where("kind", "=", "transfer")
      .executeTakeFirst();
    if (!transfer) throw new Error(`No such test transfer: ${request.transferId}`);
    const reversed = await this.db
      .selectFrom("test_payout_movements")
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount_cents"), eb.lit(0)).as("cents"))
      .where("transfer_id", "=", transfer.id)
      .where("kind", "=", "reversal")
      .where("idempotency_key", "!=", request.idempotencyKey)
      .executeTakeFirstOrThrow();
    if (
      request.amountCents <= 0 ||
      Number(reversed.cents) + request.amountCents > transfer.amount_cents
    ) {
      throw new Error(
        `A reversal of ${request.amountCents} cents exceeds what is left of transfer ${transfer.id}`,
      );
    }
    await this.db
      .insertInto("test_payout_movements")
      .values({
        id: `test_trr_${newId()}`,
        account_id: transfer.account_id,
        kind: "reversal",
        amount_cents: request.amountCents,
        transfer_id: transfer.id,
        transfer_group: transfer.transfer_group,
        idempotency_key: request.idempotencyKey,
        created_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.column("idempotency_key").doNothing())
      .execute();
    const first = await this.movementByKey(request.idempotencyKey);
    return { reversalId: first.id };
  }

  /** The test provider keeps idempotency keys for ever; a share's transfer is the one made with its key. */
  async findTransfer(
    lookup: ShareTransferLookup & { kind?: string },
  ): Promise<{ transferId: string; amountCents: number } | null> {
    const key = lookup.kind ? `${lookup.earningId}-${lookup.kind}` : lookup.earningId;
    const row = await this.db
      .selectFrom("test_payout_movements")
      .select(["id", "amount_cents"])
      .where("idempotency_key", "=", key)
      .where("kind", "=", "transfer")
      .where("transfer_group", "=", lookup.transferGroup)
      .executeTakeFirst();
    return row ? { transferId: row.id, amountCents: row.amount_cents } : null;
  }

  async findReversal(lookup: ShareReversalLookup): Promise<{ reversalId: string } | null> {
    const row = await this.db
      .selectFrom("test_payout_movements")
      .select("id")
      .where("idempotency_key", "=", `${lookup.earningId}-reversal-${lookup.reversedTotalCents}`)
      .where("transfer_id", "=", lookup.transferId)
      .executeTakeFirst();
    return row ? { reversalId: row.id } : null;
  }

  private movementByKey(key: string) {
    return this.db
      .selectFrom("test_payout_movements")
      .selectAll()
      .where("idempotency_key", "=", key)
      .executeTakeFirstOrThrow();
  }
}

/** The creator finished the test onboarding form: the account can receive transfers. */
export async function completeTestOnboarding(db: DB, accountId: string, now: Date): Promise<void> {
  await db
    .updateTable("test_payout_accounts")
    .set({ onboarded_at: now.toISOString() })
    .where("id", "=", accountId)
    .where("onboarded_at", "is", null)
    .execute();
}

/** The account holder was erased: the test account's own record forgets their email (`erased-<user id>@invalid`). */
export async function forgetTestAccountEmail(
  db: DB,
  accountId: string,
  userId: string,
): Promise<void> {
  await db
    .updateTable("test_payout_accounts")
    .set({ email: sql<string>`'erased-' || ${userId} || '@invalid'` })
    .where("id", "=", accountId)
    .execute();
}

/** What the test payout account holds: transfers minus reversals, in cents. */
export async function testAccountBalanceCents(db: DB, accountId: string): Promise<number> {
  const rows = await db
    .selectFrom("test_payout_movements")
    .select(["kind", (eb) => eb.fn.sum<number>("amount_cents").as("cents")])
    .where("account_id", "=", accountId)
    .groupBy("kind")
    .execute();
  const of = (kind: string) => Number(rows.find((row) => row.kind === kind)?.cents ?? 0);
  return of("transfer") - of("reversal");
}
