import type { Config } from "~/infra/config.server";

/**
 * Who receives personal data besides the operator (GDPR Art. 13(1)(e) and
 * (f)): every processor the running configuration uses, the transfers outside
 * the EU it makes, and where to ask for the safeguards. Only what is
 * configured is named, so the list is what the server does now.
 */
export function privacyRecipients(config: Config): string[] {
  const ask = `Ask ${config.PRIVACY_EMAIL} for a copy of the safeguards.`;
  const outsideEu = (who: string) =>
    `This is a transfer outside the EU and the EEA, to ${who}: it relies on the safeguards of the operator's data processing agreement with it, such as the EU's standard contractual clauses. ${ask}`;
  const recipients: string[] = [
    "Everyone who visits the marketplace sees a creator's public profile (name, handle, bio and photo) and the listings the creator publishes. A buyer's name and email are not shown to anyone.",
  ];
  if (config.FAL_KEY) {
    recipients.push(
      "fal.ai, an AI image service in the United States, makes your styles and, when you optimize an image smaller than the target, enlarges it: each request sends it the photo. This server sends every request with the header X-Fal-Store-IO: 0, which tells fal.ai to keep no copy of the photo or the result in its request history.",
      outsideEu("the United States (fal.ai)"),
    );
  }
  if (config.STRIPE_SECRET_KEY) {
    recipients.push(
      "Stripe takes buyers' payments (card details go to Stripe, never to this server) and pays creators (their payout details go to Stripe). Stripe processes data in the United States among other places.",
      outsideEu("the United States (Stripe)"),
    );
  }
  if (config.SMTP_URL) {
    recipients.push(
      `The mail provider behind ${hostOf(config.SMTP_URL)} sends the server's messages: it receives each recipient's address and the message.`,
    );
  }
  if (config.DATABASE_URL) {
    recipients.push(
      `The database host ${hostOf(config.DATABASE_URL)} stores the server's records (accounts, images' details, orders).`,
    );
  }
  if (config.FILES_S3_BUCKET) {
    recipients.push(
      `The object storage at ${config.AWS_ENDPOINT_URL_S3 ? hostOf(config.AWS_ENDPOINT_URL_S3) : "Amazon S3"} stores the files (uploads, styles, previews).`,
    );
  }
  if (config.SHOPIFY_CLIENT_ID) {
    recipients.push(
      "Shopify receives the images and listing details a creator publishes to a shop they connected, and nothing of anyone who did not connect one.",
    );
  }
  recipients.push(
    "Adobe Stock receives the images a creator submits after connecting a contributor account, and nothing of anyone who did not connect one.",
  );
  if (config.SMTP_URL || config.DATABASE_URL || config.FILES_S3_BUCKET) {
    recipients.push(
      `Where the providers named by their host keep the data is set by the operator's contract with each; where it is outside the EU and the EEA, the same safeguards apply. ${ask}`,
    );
  }
  if (!config.FAL_KEY && !config.STRIPE_SECRET_KEY && !config.SMTP_URL) {
    recipients.push(
      "No selfie, style, payment or message is sent to another company: styling runs on this server, payments use the built-in test checkout, and mail stays in the server's outbox.",
    );
  }
  return recipients;
}

/** A URL's host name (never the URL: it may hold a user and a password). */
export function hostOf(url: string): string {
  return new URL(url).hostname;
}
