import type { PayoutProviderId } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { getDb } from "~/infra/db.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import type { PayoutProvider } from "~/infra/payouts/payout-provider.server";
import { TestPayoutProvider, completeTestOnboarding } from "~/infra/payouts/test-payouts.server";
import { TestCheckoutProvider } from "~/infra/payments/test-checkout.server";
import { payTestOrder, startCheckout } from "~/features/market/checkout/checkout.server";
import { findOrderBySessionId } from "~/features/market/orders/orders.server";
import { recordChargeOfOrder } from "~/features/market/public.server";
import { REVERSAL_JOB, TRANSFER_JOB } from "~/features/payouts/ledger/shares.server";
import {
  reversalJobHandler,
  transferJobHandler,
  type PayoutJobDeps,
} from "~/features/payouts/transfers/payout-jobs.server";
import {
  ensurePayoutAccount,
  refreshPayoutAccount,
} from "~/features/payouts/transfers/payout-accounts.server";
import { selectWhere } from "./rows-where";

/** Payout tests over the test database (vitest only). */

/** The jobs' dependencies with the built-in test provider (and Stripe's when given). */
export function payoutDeps(
  stripe?: PayoutProvider,
  chargeOf: PayoutJobDeps["chargeOf"] = async () => null,
  test: (db: DB) => PayoutProvider = (db) => new TestPayoutProvider(db),
): PayoutJobDeps {
  return {
    payoutProvider: (id: PayoutProviderId, db: DB) => (id === "test" ? test(db) : (stripe ?? null)),
    chargeOf,
    rememberCharge: recordChargeOfOrder,
  };
}

/** Runs every queued transfer and reversal until none is left. */
export async function runPayoutJobs(deps: PayoutJobDeps = payoutDeps()): Promise<void> {
  await new JobWorker({
    db: getDb(),
    handlers: {
      [TRANSFER_JOB]: transferJobHandler(deps),
      [REVERSAL_JOB]: reversalJobHandler(deps),
    },
    concurrency: 2,
    backoff: { baseMs: 0, maxMs: 0 },
    log: () => {},
  }).drain();
}

/** A creator with a finished test payout account (owed shares are queued, not yet sent). */
export async function onboardTestPayouts(
  user: { id: string; email: string },
  now = new Date(),
  country = "US",
): Promise<string> {
  const db = getDb();
  const provider = new TestPayoutProvider(db);
  const account = await ensurePayoutAccount(db, provider, { ...user, country }, now);
  await completeTestOnboarding(db, account.account_id, now);
  await refreshPayoutAccount(db, provider, user.id, now);
  return account.account_id;
}

/** A sale in the built-in test checkout, paid the way its Pay button does; answers the order id. */
export async function testCheckoutSale(
  listingIds: string[],
  email = "bea@example.com",
  now = new Date(),
  /** A buyer's country (and VAT number), taxed as with TAX=on when `tax` is set; a discount code they entered. */
  buyer: { country?: string; vatNumber?: string; tax?: boolean; discountCode?: string } = {},
): Promise<string> {
  const db = getDb();
  const started = await startCheckout(db, new TestCheckoutProvider(), {
    listingIds,
    customer: {
      name: "Bea Buyer",
      email,
      ...(buyer.country ? { country: buyer.country } : {}),
      ...(buyer.vatNumber ? { vatNumber: buyer.vatNumber } : {}),
    },
    origin: "http://localhost:3000",
    now,
    ...(buyer.tax ? { tax: { enabled: true, platformCountry: "US" } } : {}),
    ...(buyer.discountCode ? { discountCode: buyer.discountCode } : {}),
  });
  await payTestOrder(db, (await findOrderBySessionId(db, started.sessionId))!, now);
  return started.orderId;
}

/** Each of the order's shares: status and cents. */
export function sharesOf(orderId: string) {
  return selectWhere("earnings", "*", "order_id", orderId, "created_at");
}

/** The test payout provider's movements for an account. */
export function movementsOf(accountId: string) {
  return selectWhere("test_payout_movements", "*", "account_id", accountId, "created_at");
}
