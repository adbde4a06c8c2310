/** Test-only helpers shared by the market's tests. */

/** What POST /api/webhooks/stripe answers for an event it acted on. */
export const WEBHOOK_PROCESSED = { status: 200, body: { received: true, outcome: "processed" } };

/** What it answers for a verified event it acknowledges and leaves alone (with why, where given). */
export function webhookIgnored(reason?: unknown) {
  return {
    status: 200,
    body: { received: true, outcome: "ignored", ...(reason === undefined ? {} : { reason }) },
  };
}

/** What it answers for an event it refuses: 400 with the message. */
export function webhookRefused(message: unknown) {
  return { status: 400, body: { message } };
}
