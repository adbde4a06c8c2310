import { getConfig } from "~/infra/config.server";
import { getFileStore } from "~/infra/file-store.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import { getStyleEngine } from "~/engines/styling/select-style-engine.server";
import type { JobHandler, JobHandlers } from "~/infra/jobs/job-worker.server";
import { countMailFailure, countPayoutFailure, type FailureOutcome } from "~/infra/metrics.server";
import { STYLIZE_JOB } from "~/features/studio/styles/stylized-images.server";
import { stylizeJobHandler } from "~/features/studio/styles/stylize-job.server";
import {
  PUBLISH_JOB,
  publishJobHandler,
} from "~/features/publishing/publications/publishing-job.server";
import { selectMailTransport } from "~/infra/mail/select-mail-transport.server";
import { MAIL_JOB, mailJobHandler } from "~/features/mail/mail-job.server";
import { REVERSAL_JOB, TRANSFER_JOB } from "~/features/payouts/ledger/shares.server";
import {
  reversalJobHandler,
  transferJobHandler,
  type PayoutJobDeps,
} from "~/features/payouts/transfers/payout-jobs.server";
import { payoutProviderById } from "~/infra/payouts/select-payout-provider.server";
import { StripeCheckoutProvider } from "~/infra/payments/stripe-checkout.server";
import { providerFor } from "~/infra/payments/select-provider.server";
import {
  REFUND_PAYMENT_JOB,
  refundPaymentJobHandler,
} from "~/features/market/orders/suspended-seller-refunds.server";
import {
  ACCOUNT_EXPORT_JOB,
  accountExportJobHandler,
  EXPORT_SWEEP_JOB,
  exportSweepJobHandler,
  type AccountExportSources,
} from "~/features/accounts/exports/account-export-job.server";
import { creatorPublishingExportProcedure } from "~/features/publishing/creator-export.procedures.server";
import { creatorStudioExport } from "~/features/studio/creator-export.procedures.server";
import { creatorMarketExportProcedure } from "~/features/market/analytics/procedures.server";
import { creatorPayouts } from "~/features/payouts/ledger/procedures.server";
import { creatorPrivacyExport } from "~/features/privacy/procedures/face-consent.server";
import { currentFaceConsentVersion } from "~/features/privacy/public.server";

/** What a creator's data export gathers: each feature's own rows and files, through its face. */
export const ACCOUNT_EXPORT_SOURCES: AccountExportSources = {
  studio: creatorStudioExport,
  market: creatorMarketExportProcedure,
  publishing: creatorPublishingExportProcedure,
  payouts: creatorPayouts,
  privacy: creatorPrivacyExport,
};
import { recordChargeOfOrder } from "~/features/market/public.server";
import {
  EXCLUSIVE_SOLD_JOB,
  exclusiveSoldJobHandler,
} from "~/features/market/orders/exclusive-sales.server";
import { withdrawPublicationsForReport } from "~/features/publishing/public.server";
import { featureTies } from "~/boot/studio-ties.server";
import { ERASE_ACCOUNT_JOB, eraseAccountJobHandler } from "~/features/erasure/erasure-job.server";
import { contentCredentialsFor } from "~/engines/provenance/content-credentials.server";
import {
  COMPARE_LIKENESS_JOB,
  compareLikenessJobHandler,
} from "~/features/studio/images/likeness-comparison-job.server";

/**
 * Every kind of background job this app runs, and its handler: the one place
 * the worker learns what it can do. A new kind (e.g. publishing to a platform)
 * is one more entry here.
 */
export function jobHandlers(): JobHandlers {
  // Providers are chosen per job, from the configuration of the time.
  const payouts: PayoutJobDeps = {
    payoutProvider: (id, db) => payoutProviderById(id, getConfig(), db),
    chargeOf: async (paymentIntentId) => {
      const key = getConfig().STRIPE_SECRET_KEY;
      return key ? new StripeCheckoutProvider(key).chargeOf(paymentIntentId) : null;
    },
    rememberCharge: recordChargeOfOrder,
  };
  // What features hand each other, for the contexts of the procedures the jobs run.
  const ties = featureTies();
  return {
    [STYLIZE_JOB]: stylizeJobHandler({
      store: getFileStore(),
      engine: () => getStyleEngine(),
      faceConsentVersion: () => currentFaceConsentVersion(getConfig()),
      credentials: contentCredentialsFor(getConfig()),
      // Longer than the engine's own limit (fal.ai), so the engine reports its timeout itself.
      timeoutMs: Math.max(3 * 60_000, (getConfig().FAL_TIMEOUT_SECONDS + 60) * 1000),
      ensureSpace: () => ensureFreeSpace(getConfig()),
    }),
    [PUBLISH_JOB]: publishJobHandler({
      store: getFileStore(),
      ties,
      ensureSpace: () => ensureFreeSpace(getConfig()),
    }),
    [MAIL_JOB]: countingFailures(
      mailJobHandler({
        transport: () => selectMailTransport(getConfig()),
        from: () => getConfig().MAIL_FROM,
        replyTo: () => getConfig().SUPPORT_EMAIL,
      }),
      countMailFailure,
    ),
    [TRANSFER_JOB]: countingFailures(transferJobHandler(payouts), (outcome) =>
      countPayoutFailure(TRANSFER_JOB, outcome),
    ),
    [REVERSAL_JOB]: countingFailures(reversalJobHandler(payouts), (outcome) =>
      countPayoutFailure(REVERSAL_JOB, outcome),
    ),
    [REFUND_PAYMENT_JOB]: refundPaymentJobHandler({
      paymentProvider: (id) => providerFor(id, getConfig()),
    }),
    [ACCOUNT_EXPORT_JOB]: accountExportJobHandler({
      store: getFileStore(),
      config: getConfig,
      sources: ACCOUNT_EXPORT_SOURCES,
      ties,
      ensureSpace: () => ensureFreeSpace(getConfig()),
    }),
    // An Exclusive sale withdraws the image's publications through publishing's withdrawal path (decision 101).
    [EXCLUSIVE_SOLD_JOB]: exclusiveSoldJobHandler({
      store: getFileStore(),
      withdrawPublications: withdrawPublicationsForReport,
    }),
    [EXPORT_SWEEP_JOB]: exportSweepJobHandler({ store: getFileStore() }),
    [COMPARE_LIKENESS_JOB]: compareLikenessJobHandler({ store: getFileStore() }),
    [ERASE_ACCOUNT_JOB]: eraseAccountJobHandler({
      store: getFileStore(),
      outboxDir: getConfig().outboxDir,
      payouts,
      log: console.log,
    }),
  };
}

/** The handler, counting each failed attempt (tried again later, or failed for good) in a metric of its own. */
function countingFailures<P>(
  handler: JobHandler<P>,
  count: (outcome: FailureOutcome) => void,
): JobHandler<P> {
  return {
    ...handler,
    async onRetry(payload, error, context) {
      count("retry");
      await handler.onRetry?.(payload, error, context);
    },
    async onFailed(payload, error, context) {
      count("final");
      await handler.onFailed?.(payload, error, context);
    },
  };
}
