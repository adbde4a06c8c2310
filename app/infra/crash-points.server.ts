/**
 * Named moments where the reliability tests kill the server on purpose
 * (docs/decisions/009-crash-points.md). With SELFIE_CRASH_POINT set to one
 * of these names, the process kills itself with SIGKILL the first time it
 * reaches that moment: no finally blocks, no shutdown, no flushed buffers,
 * the same as a power cut there. Unset (always, outside those tests), a
 * crash point is a comparison of two strings and nothing else.
 */
export const CRASH_POINTS = [
  /** Stripe webhook: the event id is recorded in the transaction, the order not yet fulfilled. */
  "webhook-event-recorded",
  /** Fulfillment: the order is marked paid in the transaction, no grants or ledger rows yet. */
  "order-marked-paid",
  /** Upload: the original is stored, its row is not committed yet. */
  "original-stored",
  /** Styling job: the styled file is stored, its row does not name it yet. */
  "styled-file-stored",
  /** Publishing job: the connector's files are stored, the publication row does not name them yet. */
  "publication-files-stored",
  /** Refund: the refund and the shares' reversal are recorded (committed), no transfer reversed yet. */
  "refund-recorded",
  /** Payout job: the provider made the transfer, the ledger row does not name it yet. */
  "transfer-sent",
  /** Payout job: the provider reversed the transfer, the ledger row does not say so yet. */
  "transfer-reversal-sent",
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];

export function crashPoint(name: CrashPoint): void {
  if (process.env.SELFIE_CRASH_POINT === name) process.kill(process.pid, "SIGKILL");
}
