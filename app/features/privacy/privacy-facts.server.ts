import type { Config } from "~/infra/config.server";
import { PRODUCT_NAME } from "~/lib/product";
import { styleEngineInUse } from "~/engines/styling/select-style-engine.server";
import { FAL_RETENTION_DOCS, faceConsentText } from "~/features/privacy/face-consent";
import { faceConsentVersion } from "~/features/privacy/face-consent.server";
import { hostOf, privacyRecipients } from "~/features/privacy/privacy-recipients.server";

/** A link a section offers, where the reader acts on what it says (a right, a contact). */
export interface PrivacyLink {
  href: string;
  label: string;
}

/** One part of the privacy page: a heading, its sentences and the links where its rights are used. */
export interface PrivacySection {
  id: string;
  title: string;
  paragraphs: string[];
  links?: PrivacyLink[];
}

export interface PrivacyFacts {
  sections: PrivacySection[];
  consentVersion: string;
  /** Where fal.ai describes its retention, when fal.ai styles. */
  vendorRetentionUrl: string | null;
}

/** How long the server's own records last where no setting sets it (the code's constants). */
const THROTTLE_HOURS = 24;

/**
 * What the privacy page says (the information GDPR Art. 13 asks for), made
 * from the running configuration so it cannot drift from what the server
 * does: who runs it, why and on what basis each thing is processed, where
 * the data is and who else receives it, how long each kind is kept, and where
 * each right is used — for creators with an account and buyers without one.
 */
export function privacyFacts(config: Config): PrivacyFacts {
  const engine = styleEngineInUse(config);
  const consentVersion = faceConsentVersion(engine);
  const retention = config.ORIGINALS_RETENTION_DAYS;
  const privacyEmail = config.PRIVACY_EMAIL;
  const writeTo = { href: `mailto:${privacyEmail}`, label: privacyEmail };
  const sections: PrivacySection[] = [
    controllerSection(config),
    {
      id: "purposes",
      title: "Why your data is used, and on what legal basis",
      paragraphs: [
        "Your account, your images, listings, sales and payouts, and the mail about them (sign-in links, receipts, notices): to provide the service you signed up for, under our contract with you (GDPR Art. 6(1)(b)). An email address and a password are needed to open an account; without them there is no account.",
        "Face processing (making styles of your selfies, and your verified face if you choose it): only with your explicit consent (Art. 9(2)(a)). You can withdraw it at any time in Settings, Privacy; what was done before stays lawful.",
        "Counting requests by network and email address to slow down abuse, counting a listing's visitors (by a daily hash, never the address), and the server's logs: our legitimate interest in a service that works and is safe (Art. 6(1)(f)). You may object to it (see Your rights).",
        "Orders, receipts and the records of payments, refunds and payouts: a legal obligation to keep accounting and tax records (Art. 6(1)(c)).",
        "Each upload is compared with your verified face, if you have one, and marked as you, someone else or no face; a portrait marked as someone else is sold only with that person's release. No decision with legal or similarly significant effects is made about you by automated means alone: if a mark is wrong, write to us and a person looks at it.",
      ],
    },
    {
      id: "stored",
      title: "What is stored, and where",
      paragraphs: [
        `${PRODUCT_NAME} keeps its data in ${databasePlace(config)} and its files in ${filesPlace(config)}.`,
        "Your account: your email, name, a hash of your password (never the password), your profile photo, handle and bio, your consent to face processing (when and to which text, with a record of each time you gave or withdrew it), and your signed-in sessions and API tokens with the browser they were made from.",
        "Your images: the selfies you upload (originals, with their metadata such as location removed), the styles made from them and their optimized copies, and the previews and packages made to sell or publish them.",
        "Your sales and payouts: the listings, the orders of buyers and the shares owed to you.",
        `To slow down abuse (password guessing, floods of searches, checkouts or mail), the server counts requests by network address and by email address. Those counts keep the addresses only as a hash, and for ${THROTTLE_HOURS} hours at most.`,
      ],
    },
    {
      id: "recipients",
      title: "Who else receives your data",
      paragraphs: privacyRecipients(config),
      links: [writeTo],
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
          : `Your uploaded selfies are removed ${days(retention)} after you upload them (once no style of them is still being made); the styles made from them stay. The dashboard shows when each upload will be removed.`,
        "Styles, optimized copies and your account are kept until you delete them or your account. Files a buyer has paid for are kept so the buyer can still download them.",
      ],
    },
    {
      id: "retention",
      title: "How long everything else is kept",
      paragraphs: [
        `A signed-in session ends after ${days(config.SESSION_DAYS)}, or after ${days(config.SESSION_IDLE_DAYS)} unused; an API token after ${days(config.TOKEN_DAYS)}. Expired sessions and tokens are deleted.`,
        `The record of each message sent (its recipient and subject) is deleted ${days(config.MAIL_RETENTION_DAYS)} after it was sent or given up.`,
        `The counts that slow down abuse last ${THROTTLE_HOURS} hours at most.`,
        "Your account and what it holds are kept until you delete them. When an account is erased, it is closed at once and its name, email, photo, images and consent records are deleted (the files within minutes); kept are the orders and payout records the law requires for accounting and tax (with the creator named only as a former creator), and the files buyers paid for, so they can still download them.",
        "The server's logs name no email address and no name (a hash or an account number at most); how long they are kept is set where the operator collects them.",
      ],
    },
    mailSection(config),
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
    backupsSection(config),
    {
      id: "rights",
      title: "Your rights",
      paragraphs: [
        "Access and portability: download everything your account holds, as files and JSON, from Settings, Export.",
        "Rectification: correct your name, email, handle, bio and photo in Settings.",
        "Erasure: delete an image from the dashboard, or your whole account in Settings, Delete account; it takes effect at once.",
        "Withdrawal of consent: withdraw your consent to face processing in Settings, Privacy, at any time.",
        `Objection and restriction: object to what is done on the basis of our legitimate interest, or ask us to restrict it, by writing to ${privacyEmail}. The law gives us one month to answer.`,
        "Complaint: you may complain to a data protection supervisory authority, in particular in the country where you live, where you work, or where you think the law was broken.",
      ],
      links: [
        { href: "/settings/export", label: "Settings, Export" },
        { href: "/settings", label: "Settings" },
        { href: "/settings/delete", label: "Settings, Delete account" },
        { href: "/settings/privacy", label: "Settings, Privacy" },
        writeTo,
      ],
    },
    {
      id: "buyers",
      title: "If you bought without an account",
      paragraphs: [
        "To deliver what you buy, the server keeps the email address and name you give at checkout, what you bought and when, the licence, and your download links. It uses them to send your receipt and your library link, under our contract with you (Art. 6(1)(b)); the order is kept as an accounting record (Art. 6(1)(c)).",
        `You have the same rights as a creator. Without an account, use them by writing to ${privacyEmail} from the address you gave at checkout, or through the contact page: we send you a copy of what we hold, correct it, or forget your name and address where the law does not require us to keep them.`,
      ],
      links: [writeTo, { href: "/contact", label: "Contact" }],
    },
  ];
  return {
    sections,
    consentVersion,
    vendorRetentionUrl: engine.kind === "fal" ? FAL_RETENTION_DOCS : null,
  };
}

/** Art. 13(1)(a): who is responsible, where they are, and how to reach them — or, on a demo, that no one is named. */
function controllerSection(config: Config): PrivacySection {
  const email = config.PRIVACY_EMAIL;
  if (!config.OPERATOR_NAME) {
    return {
      id: "controller",
      title: "Who is responsible for your data",
      paragraphs: [
        "This server is a demonstration: it runs on the built-in test checkout and names no operator as the controller of the data it keeps. Do not give it personal data you would not give someone you do not know.",
        `Questions about your data go to ${email}.`,
      ],
      links: [{ href: `mailto:${email}`, label: email }],
    };
  }
  const address = config.OPERATOR_ADDRESS ? `, ${config.OPERATOR_ADDRESS}` : "";
  return {
    id: "controller",
    title: "Who is responsible for your data",
    paragraphs: [
      `${config.OPERATOR_NAME}${address} runs ${PRODUCT_NAME} and is the controller of the personal data it keeps.`,
      `Write to ${email} about your data: to see it, correct it, have it deleted or object to its use.`,
    ],
    links: [{ href: `mailto:${email}`, label: email }],
  };
}

function mailSection(config: Config): PrivacySection {
  return {
    id: "mail",
    title: "Mail",
    paragraphs: [
      config.SMTP_URL
        ? `Mail to you (sign-in links, receipts, notices) is sent through the mail server ${hostOf(config.SMTP_URL)}.`
        : "Mail to you (sign-in links, receipts, notices) is not sent out: it is written to a folder on this server (the outbox), where the operator can read it.",
    ],
  };
}

/** What a backup is on each kind of store: the data directory, or the database host's and the object store's own. */
function backupsSection(config: Config): PrivacySection {
  const local = !config.DATABASE_URL && !config.FILES_S3_BUCKET;
  return {
    id: "backups",
    title: "Backups",
    paragraphs: [
      local
        ? "A backup is a full copy of the data directory: the database (accounts, listings, orders, consent records) and every stored file (uploads, styles, optimized copies, previews)."
        : `Backups are copies the operator makes of the database${config.DATABASE_URL ? ` at ${hostOf(config.DATABASE_URL)}` : ""} (accounts, listings, orders, consent records) and of the stored files${config.FILES_S3_BUCKET ? " in object storage" : ""} (uploads, styles, optimized copies, previews).`,
      "A backup taken before you delete an image or your account still holds that data until the backup itself is deleted; deleting your account does not reach into backups already made.",
    ],
  };
}

/** Where the database is: the SQLite file in the data directory, or the PostgreSQL host. */
function databasePlace(config: Config): string {
  return config.DATABASE_URL
    ? `a PostgreSQL database at ${hostOf(config.DATABASE_URL)}`
    : "a database file on this server (in its data directory)";
}

/** Where files are: the data directory, or the object store's host (and region, when set). */
function filesPlace(config: Config): string {
  if (!config.FILES_S3_BUCKET) return "a folder on this server (in its data directory)";
  const host = config.AWS_ENDPOINT_URL_S3 ? hostOf(config.AWS_ENDPOINT_URL_S3) : "Amazon S3";
  const region =
    config.AWS_REGION && config.AWS_REGION.toLowerCase() !== "auto"
      ? ` (region ${config.AWS_REGION})`
      : "";
  return `object storage at ${host}${region}`;
}

function days(count: number): string {
  return `${count} ${count === 1 ? "day" : "days"}`;
}
