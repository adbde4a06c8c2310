import type { PayoutAccountRow, PayoutProviderId } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { PayoutAccountState, PayoutProvider } from "~/infra/payouts/payout-provider.server";
import { queueOwedTransfers } from "~/features/payouts/ledger/shares.server";

/**
 * Each creator's payout account at a provider, as the provider last reported
 * it: on creation, when the creator comes back from onboarding, and (Stripe)
 * on every `account.updated` webhook. The moment an account becomes active,
 * every share the creator is owed at that provider is queued for transfer.
 */

export function payoutAccountOf(
  db: DB,
  userId: string,
  provider: PayoutProviderId,
): Promise<PayoutAccountRow | undefined> {
  return db
    .selectFrom("payout_accounts")
    .selectAll()
    .where("user_id", "=", userId)
    .where("provider", "=", provider)
    .executeTakeFirst();
}

/** The creator's account at the provider, created there first (in the creator's country) when there is none yet. */
export async function ensurePayoutAccount(
  db: DB,
  provider: PayoutProvider,
  user: { id: string; email: string; country: string },
  now: Date,
): Promise<PayoutAccountRow> {
  const existing = await payoutAccountOf(db, user.id, provider.id);
  if (existing) return existing;
  const state = await provider.createAccount({
    userId: user.id,
    email: user.email,
    country: user.country,
  });
  const stamp = now.toISOString();
  await db
    .insertInto("payout_accounts")
    .values({
      user_id: user.id,
      provider: provider.id,
      account_id: state.accountId,
      status: state.status,
      payouts_enabled: state.payoutsEnabled ? 1 : 0,
      transfers_enabled: state.transfersEnabled ? 1 : 0,
      details_submitted: state.detailsSubmitted ? 1 : 0,
      country: user.country,
      created_at: stamp,
      updated_at: stamp,
    })
    // Two clicks at once: Stripe's idempotency key gave both the same account; the first row stands.
    .onConflict((oc) => oc.columns(["user_id", "provider"]).doNothing())
    .execute();
  return (await payoutAccountOf(db, user.id, provider.id))!;
}

/**
 * Records what the provider says about an account (unknown accounts are
 * ignored: another platform's, or one deleted here), inside the caller's
 * transaction. Answers whether it became active just now, in which case its
 * owed shares were queued in the same transaction.
 */
export async function applyAccountState(
  trx: DB,
  provider: PayoutProviderId,
  state: PayoutAccountState,
  now: Date,
): Promise<{ known: boolean; becameActive: boolean }> {
  {
    const before = await trx
      .selectFrom("payout_accounts")
      .selectAll()
      .where("account_id", "=", state.accountId)
      .where("provider", "=", provider)
      .executeTakeFirst();
    if (!before) return { known: false, becameActive: false };
    await trx
      .updateTable("payout_accounts")
      .set({
        status: state.status,
        payouts_enabled: state.payoutsEnabled ? 1 : 0,
        transfers_enabled: state.transfersEnabled ? 1 : 0,
        details_submitted: state.detailsSubmitted ? 1 : 0,
        updated_at: now.toISOString(),
      })
      .where("account_id", "=", state.accountId)
      .execute();
    const becameActive = state.status === "active" && before.status !== "active";
    if (becameActive) await queueOwedTransfers(trx, before.user_id, provider, now);
    return { known: true, becameActive };
  }
}

/**
 * Asks the provider for the account's state now (the creator is back from
 * onboarding) and records it. An active account also gets every owed share
 * queued again, so a transfer that gave up earlier (its attempts spent while
 * the provider was down) goes out on the creator's next visit; the transfer's
 * idempotency key keeps a share from being sent twice.
 */
export async function refreshPayoutAccount(
  db: DB,
  provider: PayoutProvider,
  userId: string,
  now: Date,
): Promise<PayoutAccountRow | undefined> {
  const row = await payoutAccountOf(db, userId, provider.id);
  if (!row) return undefined;
  const state = await provider.retrieveAccount(row.account_id);
  await db.transaction().execute(async (trx) => {
    const { becameActive } = await applyAccountState(trx, provider.id, state, now);
    if (state.status === "active" && !becameActive)
      await queueOwedTransfers(trx, userId, provider.id, now);
  });
  return payoutAccountOf(db, userId, provider.id);
}
