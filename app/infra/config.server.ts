import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import net from "node:net";
import { z } from "zod";
import { STYLE_IDS } from "~/lib/styles";
import { PRODUCT_NAME } from "~/lib/product";
import { isMailAddress, parseMailbox } from "~/infra/mail/mail-address.server";
import {
  C2paCredentialsProblem,
  normalizePem,
  readC2paCredentials,
} from "~/infra/c2pa-credentials.server";
import {
  PLATFORM_COUNTRIES,
  SETTLEMENT_CURRENCY,
  isSettlementCurrency,
} from "~/lib/payout-countries";

/**
 * The one place configuration is read. Every setting is parsed once by zod and
 * exported as a typed object; a bad value stops the start with a message that
 * names the variable. Each setting is described in setting-descriptions.server.ts,
 * from which the reference in docs/configuration.md is written.
 */

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const boolean = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

/** FAL_STYLES: JSON, per style, e.g. {"anime":{"prompt":"...","model":"fal-ai/...","input":{"guidance_scale":4}}}. */
const falStyleOverrides = optionalText.pipe(
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a JSON object keyed by style" });
        return z.NEVER;
      }
    })
    .pipe(
      z.partialRecord(
        z.enum(STYLE_IDS),
        z
          .object({
            model: z.string().trim().min(1).optional(),
            prompt: z.string().trim().min(1).optional(),
            input: z.record(z.string(), z.unknown()).optional(),
            imageField: z.enum(["image_url", "image_urls"]).optional(),
          })
          .strict(),
      ),
    )
    .optional(),
);

/**
 * TRUST_PROXY: how many proxies stand in front (a hop count), or their
 * addresses/subnets (comma-separated), or `fly` (Fly.io's Fly-Client-IP).
 * `true` is refused: it would believe the left-most X-Forwarded-For entry,
 * which the client writes itself.
 */
export type ProxyTrust =
  { kind: "hops"; hops: number } | { kind: "addresses"; addresses: string[] } | { kind: "fly" };

const proxyTrust = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): ProxyTrust => {
    const text = (value ?? "").toLowerCase();
    if (text === "" || text === "false") return { kind: "hops", hops: 0 };
    if (text === "fly") return { kind: "fly" };
    if (/^\d+$/.test(text) && Number(text) <= 10) return { kind: "hops", hops: Number(text) };
    if (text === "true") {
      ctx.addIssue({
        code: "custom",
        message:
          "true would trust a client-written X-Forwarded-For; set the number of proxies in front (e.g. 1), their addresses, or fly",
      });
      return z.NEVER;
    }
    const addresses = text
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    if (addresses.length > 0 && addresses.every(isAddressOrSubnet))
      return { kind: "addresses", addresses };
    ctx.addIssue({
      code: "custom",
      message: "must be a hop count (0-10), proxy addresses or subnets, or fly",
    });
    return z.NEVER;
  });

function isAddressOrSubnet(text: string): boolean {
  if (["loopback", "linklocal", "uniquelocal"].includes(text)) return true;
  const [address, bits, ...rest] = text.split("/");
  if (rest.length > 0 || net.isIP(address) === 0) return false;
  if (bits === undefined) return true;
  const max = net.isIP(address) === 4 ? 32 : 128;
  return /^\d+$/.test(bits) && Number(bits) <= max;
}

const SMTP_URL_EXAMPLE = "smtps://user:pass@smtp.example.com:465";

/**
 * SMTP_URL: where mail goes out, e.g. smtps://user:pass@smtp.example.com:465
 * (smtps: TLS from the start; smtp: upgraded with STARTTLS, see
 * app/infra/mail/smtp-transport.server.ts). Credentials may sit in the URL,
 * percent-encoded. The value is never repeated in a message: it may hold the
 * password.
 */
const smtpUrl = optionalText.transform((value, ctx) => {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: "custom", message: `must be a URL such as ${SMTP_URL_EXAMPLE}` });
    return z.NEVER;
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    // Name the scheme only when the value plainly has one (smtp.example.com:465 parses as the scheme "smtp.example.com:").
    const scheme = value.toLowerCase().startsWith(`${url.protocol}//`)
      ? ` (not ${url.protocol}//)`
      : "";
    ctx.addIssue({
      code: "custom",
      message: `must start with smtp:// or smtps://${scheme}, such as ${SMTP_URL_EXAMPLE}`,
    });
    return z.NEVER;
  }
  if (url.hostname === "") {
    ctx.addIssue({
      code: "custom",
      message: `must name the mail server's host, such as ${SMTP_URL_EXAMPLE}`,
    });
    return z.NEVER;
  }
  return value;
});

/** MAIL_FROM: one RFC 5322 mailbox, e.g. `Selfie Studio <studio@example.com>`. */
const mailFrom = optionalText.pipe(
  z
    .string()
    .refine((value) => parseMailbox(value) !== null, {
      message:
        "must be one address, such as studio@example.com or Selfie Studio <studio@example.com>",
    })
    .optional(),
);

/**
 * How long a PostgreSQL connection is kept at most, by default: well below the
 * 10 minutes after which Fly.io's proxy cuts the connections it still holds
 * when it restarts, so the pool replaces them before they are cut.
 */
export const DEFAULT_DATABASE_MAX_LIFETIME_SECONDS = 300;

const DATABASE_URL_EXAMPLE = "postgres://user:pass@db.example.com:5432/selfie";

/**
 * DATABASE_URL / DATABASE_DIRECT_URL: a PostgreSQL connection URL. The value is
 * never repeated in a message: it may hold the password.
 */
const postgresUrl = optionalText.transform((value, ctx) => {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: "custom", message: `must be a URL such as ${DATABASE_URL_EXAMPLE}` });
    return z.NEVER;
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    ctx.addIssue({
      code: "custom",
      message: `must start with postgres:// or postgresql://, such as ${DATABASE_URL_EXAMPLE}`,
    });
    return z.NEVER;
  }
  return value;
});

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  /** PostgreSQL instead of the SQLite file under DATA_DIR (unset: SQLite). */
  DATABASE_URL: postgresUrl,
  /** A direct (not pooled) URL for migrations when DATABASE_URL goes through PgBouncer (default: DATABASE_URL). */
  DATABASE_DIRECT_URL: postgresUrl,
  /** Connections each process keeps open to PostgreSQL. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** The longest a PostgreSQL connection is kept before it is replaced (below Fly.io's 10-minute proxy cut). */
  DATABASE_MAX_LIFETIME_SECONDS: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.coerce
      .number()
      .int("must be a whole number of seconds")
      .min(10)
      .max(86_400)
      .default(DEFAULT_DATABASE_MAX_LIFETIME_SECONDS),
  ),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  APP_SECRET: optionalText.pipe(
    z.string().min(32, "must be at least 32 characters (try: openssl rand -hex 32)").optional(),
  ),
  PUBLIC_URL: optionalText.pipe(
    z.url("must be a full URL such as https://selfie.example").optional(),
  ),
  ADMIN_EMAIL: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email("must be an email address"))
    .default("admin@selfie.studio"),
  /** The address the contact page gives for help (default: ADMIN_EMAIL). */
  SUPPORT_EMAIL: optionalText.pipe(
    z.string().toLowerCase().pipe(z.email("must be an email address")).optional(),
  ),
  ADMIN_PASSWORD: optionalText.pipe(z.string().min(8, "must be at least 8 characters").optional()),
  /** Who runs this server: the controller the privacy notice names (GDPR Art. 13(1)(a)). */
  OPERATOR_NAME: optionalText.pipe(
    z.string().max(200, "must be at most 200 characters").optional(),
  ),
  /** The controller's postal address, on one line, as the privacy notice gives it. */
  OPERATOR_ADDRESS: optionalText.pipe(
    z.string().max(500, "must be at most 500 characters").optional(),
  ),
  /** Where people write about their data (default: SUPPORT_EMAIL). */
  PRIVACY_EMAIL: optionalText.pipe(
    z.string().toLowerCase().pipe(z.email("must be an email address")).optional(),
  ),

  REGISTRATION: z.enum(["closed", "open"]).default("closed"),
  SESSION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** A web session left unused this many days ends before its SESSION_DAYS are up. */
  SESSION_IDLE_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  TOKEN_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  TRUST_PROXY: proxyTrust,
  /**
   * What this process does: `all` serves requests and runs the job worker and
   * the periodic work; `web` only serves requests; `worker` runs the jobs and
   * the periodic work and answers only /healthz and /readyz.
   */
  ROLE: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toLowerCase() || undefined : v),
    z.enum(["all", "web", "worker"], { error: "must be all, web or worker" }).default("all"),
  ),
  /** A periodic task that only logs a line every this many seconds (checks that several workers run periodic work once); unset: none. */
  PERIODIC_PROBE_SECONDS: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.coerce.number().int("must be a whole number of seconds").min(1).max(86_400).optional(),
  ),
  JOB_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** How long a running job's lease lasts (renewed while it runs); after a crash its job is taken up again this long after. */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(3).max(3600).default(60),
  /** Images one creator may upload in any 24 hours (deleting an image does not give the upload back). */
  UPLOADS_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** Megabytes of originals, styled and optimized images one creator may keep. */
  STORAGE_PER_CREATOR_MB: z.coerce.number().int().min(1).max(100_000_000).default(2048),
  /** Styles one creator may ask for in any 24 hours. */
  STYLIZATIONS_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(200),
  /** Optimizations one creator may have running at once (in this process). */
  OPTIMIZATIONS_AT_ONCE: z.coerce.number().int().min(1).max(64).default(2),
  /** Publishing jobs one creator may have queued or running at once. */
  PUBLISH_JOBS_PER_CREATOR: z.coerce.number().int().min(1).max(10_000).default(10),
  /** Below this much free space on DATA_DIR's volume, anything that writes files is refused (0 turns the check off). */
  MIN_FREE_DISK_MB: z.coerce.number().int().min(0).max(1_000_000).default(200),
  /** Accounts one client address may create in an hour while REGISTRATION=open. */
  REGISTRATIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(5),
  /** Checkouts one client address may start in 10 minutes (buyers behind one shared address count together). */
  CHECKOUTS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(30),
  /** Payment status lookups one client address may make in a minute. */
  PAYMENT_STATUS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /** Library links one client address may ask for in an hour (POST /api/library-link and the form on /library). */
  LIBRARY_LINKS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /** Waitlist requests (the Register tab's form while registration is closed) one client address may send in an hour. */
  WAITLIST_REQUESTS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(10),
  /** Reports of listings and storefronts one client address may send in an hour. */
  REPORTS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(10),
  /** Follows of creators (the Follow form, POST /api/follows) one client address may ask for in an hour. */
  FOLLOWS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(10),
  /** How often the follows' digests are looked for (each follow still gets at most one a day). */
  FOLLOW_DIGEST_CHECK_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** Upheld reports (decided `remove`) after which a creator is suspended as a ban would. */
  UPHELD_REPORTS_TO_SUSPEND: z.coerce.number().int().min(1).max(1_000).default(3),
  /** How many beta spots there are: the landing page's "spots remaining" and the waitlist mail count the real spots left (betaSpotsLeft). */
  BETA_SPOTS: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.coerce.number().int("must be a whole number").min(1).max(1_000_000).default(200),
  ),
  /**
   * `on`: the spec's cosmetic figures (card ratings, style earnings and demand, launch reach,
   * the landing's earnings, testimonials, countdown and spots) show, each labelled; for the demo
   * (`npm start`'s --seed sets it). `off` (the default, a live store): only figures that are facts.
   */
  DEMO_FIGURES: z.enum(["on", "off"], { error: "must be on or off" }).default("off"),
  /** When the beta ends (an ISO date or date and time): the landing page's countdown runs to it and "closed until" names its year. */
  BETA_ENDS_AT: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z
      .union([z.iso.datetime({ offset: true }), z.iso.date()], {
        error: "must be an ISO date such as 2027-03-01 or 2027-03-01T12:00:00Z",
      })
      .optional(),
  ),
  /** Marketplace searches (?q= on /marketplace and /api/marketplace, each page of one) one client address may make in a minute. */
  SEARCHES_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(60),
  /** How long, in milliseconds, a visitor's copy of a public page (/, /landing, /training, /marketplace) is served to other visitors (0 turns the cache off). */
  PAGE_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** How many mebibytes the visitors' page copies may hold together (pages and headers); the oldest go first. */
  PAGE_CACHE_MB: z.coerce.number().int().min(1).max(4096).default(32),
  /**
   * The bearer token a scraper sends for GET /metrics (`Authorization: Bearer <token>`);
   * unset: /metrics is off (404). At least 16 characters.
   */
  METRICS_TOKEN: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.string().min(16, "must be at least 16 characters").max(200).optional(),
  ),
  /** How log lines are written: one JSON object a line (`json`), or plain lines (`text`). Default: json in production, text otherwise. */
  LOG_FORMAT: z.enum(["json", "text"]).optional(),
  /** Days an uploaded selfie (original) is kept before a daily sweep removes it, styles made from it staying; unset: kept. */
  ORIGINALS_RETENTION_DAYS: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.coerce.number().int("must be a whole number of days").min(1).max(36_500).optional(),
  ),
  /** Days a sent or given-up message's job row (its recipient and subject) is kept before a daily purge. */
  MAIL_RETENTION_DAYS: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.coerce.number().int("must be a whole number of days").min(1).max(36_500).default(30),
  ),
  FAL_KEY: optionalText,
  /** The Content Credentials signing certificate (PEM, the chain after it); unset with C2PA_KEY: a self-made one in DATA_DIR. */
  C2PA_CERT: optionalText,
  /** The signing certificate's private key (PEM, unencrypted). */
  C2PA_KEY: optionalText,
  /** The fal.ai model for every style (default: the per-style table in app/engines/styling/fal-models.server.ts). */
  FAL_MODEL: optionalText,
  FAL_STYLES: falStyleOverrides,
  /** How long one fal.ai styling request may take, queue included, before it is cancelled. */
  FAL_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(120),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** The signing secret of the Connect webhook endpoint (events of creators' connected accounts, such as account.updated). */
  STRIPE_CONNECT_WEBHOOK_SECRET: optionalText,
  /** The country of the platform's Stripe account: where it pays creators from (app/lib/payout-countries.ts). */
  STRIPE_PLATFORM_COUNTRY: z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? v.trim().toUpperCase() : undefined),
    z
      .string()
      .refine((value) => PLATFORM_COUNTRIES.includes(value), {
        message: `must be one of ${PLATFORM_COUNTRIES.join(", ")} (a two-letter country code)`,
      })
      .default("US"),
  ),
  /** The platform's settlement currency: every price, charge and transfer is in it (lowercase ISO code). */
  CURRENCY: z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? v.trim().toLowerCase() : undefined),
    z
      .string()
      .regex(/^[a-z]{3}$/, "must be a three-letter currency code such as usd")
      .default("usd"),
  ),
  /** Lets a production server without STRIPE_SECRET_KEY serve the built-in test checkout (a demo; its sales are not revenue). */
  ALLOW_TEST_CHECKOUT: boolean,
  /** `on`: tax is charged at checkout (Stripe Tax with Stripe; EU and UK VAT in the test checkout); `off`: none (docs/decisions/102). */
  TAX: z.enum(["on", "off"], { error: "must be on or off" }).default("off"),
  /** Days after its payment within which a buyer may ask for a refund of an order (the library and the receipt). */
  REFUND_WINDOW_DAYS: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.coerce.number().int("must be a whole number of days").min(1).max(365).default(14),
  ),
  /** Adobe Stock's contributor SFTP server (change it only to point at a test server). */
  ADOBE_STOCK_SFTP_HOST: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().trim().min(1).max(253).default("sftp.contributor.adobestock.com"),
  ),
  ADOBE_STOCK_SFTP_PORT: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().min(1).max(65_535).default(22),
  ),
  SHOPIFY_CLIENT_ID: optionalText,
  SHOPIFY_CLIENT_SECRET: optionalText,
  /** Where mail goes out (smtp:// or smtps://, credentials allowed); unset: mail is written to DATA_DIR/outbox. */
  SMTP_URL: smtpUrl,
  /** The sender of every message (default: the product name at no-reply@ the host of PUBLIC_URL). */
  MAIL_FROM: mailFrom,
  /** S3-compatible object storage for files (all unset: files on the local volume). */
  AWS_ENDPOINT_URL_S3: optionalText.pipe(
    z
      .string()
      .url("must be the object store's URL, such as https://fly.storage.tigris.dev")
      .optional(),
  ),
  AWS_REGION: optionalText,
  AWS_ACCESS_KEY_ID: optionalText,
  AWS_SECRET_ACCESS_KEY: optionalText,
  /** The private bucket (originals, styled and optimized images, listings, kits, exports, releases). */
  FILES_S3_BUCKET: optionalText,
  /** The public bucket (marketplace previews and their variants, landing samples, profile photos). */
  FILES_S3_PUBLIC_BUCKET: optionalText,
  /** The address public files are served from: the CDN or the public bucket's address. */
  FILES_PUBLIC_BASE_URL: optionalText.pipe(
    z.string().url("must be an absolute URL, such as https://cdn.example.com").optional(),
  ),
  /** Path-style bucket addressing (endpoint/bucket/key); default: on with AWS_ENDPOINT_URL_S3, off on AWS itself. */
  FILES_S3_FORCE_PATH_STYLE: z.enum(["true", "false", ""]).optional(),
});

/** Every setting's name, as the environment spells it. */
export type SettingName = keyof typeof schema.shape;

/** The settings the server reads, in the order of the schema. */
export const SETTING_NAMES = Object.keys(schema.shape) as SettingName[];

export type Config = Omit<
  z.output<typeof schema>,
  "APP_SECRET" | "MAIL_FROM" | "SUPPORT_EMAIL" | "PRIVACY_EMAIL"
> & {
  /** The address the contact page gives: SUPPORT_EMAIL, or ADMIN_EMAIL without it. */
  SUPPORT_EMAIL: string;
  /** Where people write about their data: PRIVACY_EMAIL, or the support address without it. */
  PRIVACY_EMAIL: string;
  /** The sender of every message: MAIL_FROM, or the product name at no-reply@ the host of PUBLIC_URL (or localhost). */
  MAIL_FROM: string;
  /** Absolute path of the data directory. */
  dataDir: string;
  /** Where mail is written when SMTP_URL is unset: DATA_DIR/outbox. */
  outboxDir: string;
  databaseFile: string;
  filesDir: string;
  /** The app secret: from APP_SECRET, or generated once and kept under DATA_DIR. */
  appSecret: string;
  isProduction: boolean;
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) => `${issue.path.join(".") || "environment"}: ${issue.message}`,
      ),
    );
  }
  const values = parsed.data;
  if (!isSettlementCurrency(values.STRIPE_PLATFORM_COUNTRY, values.CURRENCY)) {
    const expected = SETTLEMENT_CURRENCY[values.STRIPE_PLATFORM_COUNTRY];
    throw new ConfigError([
      `CURRENCY: a platform in ${values.STRIPE_PLATFORM_COUNTRY} settles in ${expected}, not ${values.CURRENCY}; set CURRENCY=${expected} (or the STRIPE_PLATFORM_COUNTRY of the platform's Stripe account)`,
    ]);
  }
  if (values.DATABASE_DIRECT_URL && !values.DATABASE_URL) {
    throw new ConfigError([
      "DATABASE_DIRECT_URL: is only used with DATABASE_URL (the pooled PostgreSQL URL); set both, or neither for SQLite",
    ]);
  }
  const storageProblem = objectStorageProblem(values);
  if (storageProblem) throw new ConfigError([storageProblem]);
  const credentialsProblem = contentCredentialsProblem(values);
  if (credentialsProblem) throw new ConfigError([credentialsProblem]);
  const productionProblems = productionRequirements(values);
  if (productionProblems.length > 0) throw new ConfigError(productionProblems);
  const dataDir = path.resolve(values.DATA_DIR);
  // A new data directory is owner-only; the database and the app secret in it are 0600 whatever it is.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const filesDir = path.join(dataDir, "files");
  fs.mkdirSync(filesDir, { recursive: true, mode: 0o700 });
  const { APP_SECRET, ...rest } = values;
  return {
    ...rest,
    MAIL_FROM: values.MAIL_FROM ?? defaultMailFrom(values.PUBLIC_URL),
    SUPPORT_EMAIL: values.SUPPORT_EMAIL ?? values.ADMIN_EMAIL,
    C2PA_CERT: values.C2PA_CERT === undefined ? undefined : normalizePem(values.C2PA_CERT),
    C2PA_KEY: values.C2PA_KEY === undefined ? undefined : normalizePem(values.C2PA_KEY),
    PRIVACY_EMAIL: values.PRIVACY_EMAIL ?? values.SUPPORT_EMAIL ?? values.ADMIN_EMAIL,
    dataDir,
    outboxDir: path.join(dataDir, "outbox"),
    databaseFile: path.join(dataDir, "selfie-studio.sqlite"),
    filesDir,
    appSecret: APP_SECRET ?? readOrCreateSecret(dataDir),
    isProduction: values.NODE_ENV === "production",
  };
}

/** `Selfie Studio <no-reply@HOST>`, HOST being PUBLIC_URL's host name (localhost without one, or for an IPv6 address). */
function defaultMailFrom(publicUrl: string | undefined): string {
  const host = publicUrl ? new URL(publicUrl).hostname : "";
  const domain = isMailAddress(`no-reply@${host}`) ? host : "localhost";
  return `${PRODUCT_NAME} <no-reply@${domain}>`;
}

/**
 * What a production server (NODE_ENV=production) must have: a public URL for
 * the links that leave the page, a real payment provider unless the operator
 * asks for the test checkout on purpose (a demo), and with SMTP a sender
 * (MAIL_FROM) the provider has verified, never the made-up no-reply@ default.
 */
const OBJECT_STORAGE_SETTINGS = [
  "AWS_ENDPOINT_URL_S3",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "FILES_S3_BUCKET",
  "FILES_S3_PUBLIC_BUCKET",
  "FILES_PUBLIC_BASE_URL",
] as const;

/** Object storage is all or nothing: one line naming what is missing when half configured. */
function objectStorageProblem(values: z.output<typeof schema>): string | undefined {
  const given = OBJECT_STORAGE_SETTINGS.filter((name) => values[name]);
  if (given.length === 0) return undefined;
  const required = [
    "FILES_S3_BUCKET",
    "FILES_S3_PUBLIC_BUCKET",
    "FILES_PUBLIC_BASE_URL",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
  ] as const;
  const missing = required.filter((name) => !values[name]);
  if (missing.length === 0) return awsRegionProblem(values);
  return `${missing.join(", ")}: object storage is half configured (${given.join(", ")} set); set all of FILES_S3_BUCKET, FILES_S3_PUBLIC_BUCKET, FILES_PUBLIC_BASE_URL, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with AWS_ENDPOINT_URL_S3 and AWS_REGION as the provider says), or none for files on the local volume`;
}

/**
 * C2PA_CERT and C2PA_KEY go together, and must sign: a key that is not the
 * certificate's (or an expired certificate, or a key no C2PA algorithm takes)
 * would put a signature no reader accepts on every file, so the start refuses.
 */
function contentCredentialsProblem(values: z.output<typeof schema>): string | undefined {
  if (!values.C2PA_CERT && !values.C2PA_KEY) return undefined;
  if (!values.C2PA_CERT || !values.C2PA_KEY) {
    const missing = values.C2PA_CERT ? "C2PA_KEY" : "C2PA_CERT";
    return `${missing}: is required with ${missing === "C2PA_KEY" ? "C2PA_CERT" : "C2PA_KEY"}: set both (the Content Credentials signing certificate and its private key, PEM), or neither, and the server signs with a certificate it makes itself (which no reader trusts)`;
  }
  try {
    readC2paCredentials(values.C2PA_CERT, values.C2PA_KEY);
    return undefined;
  } catch (error) {
    if (error instanceof C2paCredentialsProblem) return error.message;
    throw error;
  }
}

/**
 * Without AWS_ENDPOINT_URL_S3 the requests go to AWS S3 itself, which signs
 * and routes by the buckets' region: the `auto` that R2 and Tigris take (the
 * default with an endpoint) is refused there, so every request would fail.
 */
function awsRegionProblem(values: z.output<typeof schema>): string | undefined {
  if (values.AWS_ENDPOINT_URL_S3) return undefined;
  if (values.AWS_REGION && values.AWS_REGION.toLowerCase() !== "auto") return undefined;
  return `AWS_REGION: ${values.AWS_REGION ? "auto is not a region of AWS S3" : "is required"} when AWS_ENDPOINT_URL_S3 is unset (the files go to AWS S3 itself); set it to the buckets' region, such as eu-west-1, or set AWS_ENDPOINT_URL_S3 for R2, Tigris or MinIO (AWS_REGION then defaults to auto)`;
}

function productionRequirements(values: z.output<typeof schema>): string[] {
  if (values.NODE_ENV !== "production") return [];
  const problems: string[] = [];
  if (!values.PUBLIC_URL) {
    problems.push(
      "PUBLIC_URL: is required when NODE_ENV=production (the public base URL, such as https://selfie.example)",
    );
  }
  if (!values.STRIPE_SECRET_KEY && !values.ALLOW_TEST_CHECKOUT) {
    problems.push(
      'STRIPE_SECRET_KEY: is required when NODE_ENV=production, or anyone could "pay" in the built-in test checkout ' +
        "and download for free; to run a demo on the test checkout, set ALLOW_TEST_CHECKOUT=true",
    );
  }
  const controllerMissing = (
    ["OPERATOR_NAME", "OPERATOR_ADDRESS", "PRIVACY_EMAIL"] as const
  ).filter((name) => !values[name]);
  if (controllerMissing.length > 0 && !isDemo(values)) {
    problems.push(
      `${controllerMissing.join(", ")}: ${controllerMissing.length === 1 ? "is" : "are"} required when NODE_ENV=production: ` +
        "the privacy notice must say who is responsible for the data this server keeps (the controller), where they are and " +
        "where people write about their data. A demo on the built-in test checkout (ALLOW_TEST_CHECKOUT=true, no Stripe) may " +
        "leave them unset; its privacy page then says that it names no operator",
    );
  }
  if (values.SMTP_URL && !values.MAIL_FROM) {
    problems.push(
      "MAIL_FROM: is required when NODE_ENV=production and SMTP_URL is set: mail providers refuse a sender they have not " +
        "verified, and every receipt and password reset would be refused. Set it to an address your provider has verified, " +
        "such as Selfie Studio <studio@selfie.example>",
    );
  }
  return problems;
}

/** A production server on the built-in test checkout only: a demo that takes no real payments. */
function isDemo(values: z.output<typeof schema>): boolean {
  return !values.STRIPE_SECRET_KEY && values.ALLOW_TEST_CHECKOUT;
}

/**
 * The secret is generated once per data directory and never leaves it. An
 * existing file that holds too short a secret stops the start: it is never
 * replaced, since everything signed or sealed with it would be lost.
 */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "app-secret");
  try {
    return validSecretIn(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secret = crypto.randomBytes(32).toString("hex");
  try {
    fs.writeFileSync(file, secret + "\n", { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return validSecretIn(file);
    throw error;
  }
}

/** The secret kept in `file` (ENOENT when there is none); fewer than 32 characters is a ConfigError naming the file. */
function validSecretIn(file: string): string {
  const existing = fs.readFileSync(file, "utf8").trim();
  if (existing.length < 32) {
    throw new ConfigError([
      `APP_SECRET: the secret file ${file} holds ${existing.length} characters, fewer than 32. ` +
        "Put the secret this data directory was used with back in it, or set APP_SECRET; delete the file only if " +
        "nothing signed or encrypted with the old secret is needed (sessions, media links, stored platform credentials).",
    ]);
  }
  return existing;
}

let current: Config | undefined;

/** The parsed configuration of this process. */
export function getConfig(): Config {
  current ??= parseConfig(process.env);
  return current;
}
