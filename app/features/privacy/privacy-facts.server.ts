import type { Config } from "~/infra/config.server";
import { PRODUCT_NAME } from "~/lib/product";
import { styleEngineInUse } from "~/engines/styling/select-style-engine.server";
import { FAL_RETENTION_DOCS, faceConsentText } from "~/features/privacy/face-consent";
import { faceConsentVersion } from "~/features/privacy/face-consent.server";

/** One part of the privacy page: a heading and its sentences. */
export interface PrivacySection {
  id: string;
  title: string;
  paragraphs: string[];
}

export interface PrivacyFacts {
  sections: PrivacySection[];
  consentVersion: string;
  /** Where fal.ai describes its retention, when fal.ai styles. */
  vendorRetentionUrl: string | null;
}

/**
 * What the privacy page says, made from the running configuration so it
 * cannot drift from what the server does: the styling engine (and fal.ai's
 * retention when it is used), where mail goes, who takes payments, the
 * platforms configured, how long originals are kept, and what backups hold.
 */
export function privacyFacts(config: Config): PrivacyFacts {
  const engine = styleEngineInUse(config);
  const consentVersion = faceConsentVersion(engine);
  const retention = config.ORIGINALS_RETENTION_DAYS;
  const sections: PrivacySection[] = [
    {
      id: "stored",
      title: "What is stored, and where",
      paragraphs: [
        `${PRODUCT_NAME} keeps its data on this server: a database and a folder of files in its data directory.`,
        "Your account: your email, name, a hash of your password (never the password), your profile photo, handle and bio, your consent to face processing (when and to which text, with a record of each time you gave or withdrew it), and your signed-in sessions and API tokens with the browser they were made from.",
        "Your images: the selfies you upload (originals, with their metadata such as location removed), the styles made from them and their optimized copies, and the previews and packages made to sell or publish them.",
        "Your sales and payouts: the listings, the orders of buyers and the shares owed to you.",
        "To slow down abuse (password guessing, floods of searches, checkouts or mail), the server counts requests by network address and by email address. Those counts keep the addresses only as a hash, and for a day at most.",
      ],
    },
    {
      id: "styling",
      title: engine.kind === "fal" ? "Styling: fal.ai" : "Styling: on this server",
      paragraphs: [
        ...faceConsentText(engine),
        `Styling starts only after you agree to this text (version ${consentVersion}); you can withdraw your consent in Settings, Privacy, which stops new styling at once and cancels your waiting styles.`,
      ],
    },
    {
      id: "verified-face",
      title: "Your verified face",
      paragraphs: [
        "You may verify your face in Settings, Privacy, after agreeing to face processing: from a selfie of you alone, this server makes a face descriptor, 1024 numbers that describe your face (biometric data), with the face models it runs itself. The selfie is not kept, and the descriptor never leaves this server (it is not in your data export, which says only that it exists).",
        "Each upload is then compared with it and marked as you, someone else, or no face. If the same face is already verified on another account, the verification is accepted and the administrator is told.",
        "The descriptor is kept until you delete it (Settings, Privacy), withdraw your consent to face processing, or your account is erased; each of these deletes it at once (a backup made before then holds it until the backup is deleted, see Backups). It is not a check that you are present in person: it compares faces, nothing more.",
      ],
    },
    {
      id: "originals",
      title: "How long your uploads are kept",
      paragraphs: [
        retention === undefined
          ? "Your uploaded selfies are kept until you delete them or your account."
          : `Your uploaded selfies are removed ${retention} ${retention === 1 ? "day" : "days"} after you upload them (once no style of them is still being made); the styles made from them stay. The dashboard shows when each upload will be removed.`,
        "Styles, optimized copies and your account are kept until you delete them or your account. Files a buyer has paid for are kept so the buyer can still download them.",
      ],
    },
    {
      id: "mail",
      title: "Mail",
      paragraphs: [
        config.SMTP_URL
          ? `Mail to you (sign-in links, receipts, notices) is sent through the mail server ${smtpHost(config.SMTP_URL)}.`
          : "Mail to you (sign-in links, receipts, notices) is not sent out: it is written to a folder on this server (the outbox), where the operator can read it.",
      ],
    },
    {
      id: "payments",
      title: "Payments",
      paragraphs: [
        config.STRIPE_SECRET_KEY
          ? "Payments and creators' payouts are handled by Stripe: a buyer's card details go to Stripe, never to this server; Stripe keeps its own records of payments under its own privacy policy."
          : "Payments use the built-in test checkout: no card details are asked for or sent anywhere, and its sales are not real payments.",
      ],
    },
    {
      id: "platforms",
      title: "Platforms you connect",
      paragraphs: [
        ...(config.SHOPIFY_CLIENT_ID
          ? [
              "Shopify: when you connect a shop, the images and listing details you publish there are sent to your Shopify store.",
            ]
          : []),
        `Adobe Stock: when you connect your contributor account, the images you submit are uploaded to ${config.ADOBE_STOCK_SFTP_HOST} over SFTP.`,
        "The credentials of a platform you connect are stored encrypted on this server and removed when you disconnect it.",
      ],
    },
    {
      id: "backups",
      title: "Backups",
      paragraphs: [
        "A backup is a full copy of the data directory: the database (accounts, listings, orders, consent records) and every stored file (uploads, styles, optimized copies, previews).",
        "A backup taken before you delete an image or your account still holds that data until the backup itself is deleted; deleting your account does not reach into backups already made.",
      ],
    },
  ];
  return {
    sections,
    consentVersion,
    vendorRetentionUrl: engine.kind === "fal" ? FAL_RETENTION_DOCS : null,
  };
}

/** The mail server's host name (never the URL: it may hold the password). */
function smtpHost(smtpUrl: string): string {
  return new URL(smtpUrl).hostname;
}
