import type { Config } from "~/infra/config.server";
import { getConfig } from "~/infra/config.server";
import type { CallContext } from "~/infra/call-context.server";
import type { DB } from "~/infra/db.server";
import { tooManyRequests } from "~/infra/errors.server";
import { countedKeyHash } from "~/infra/counted-keys.server";
import { engineOf } from "~/infra/sql-dialect.server";
import { takeSharedHit } from "~/infra/shared-rate-limits.server";

/**
 * Per-address limits on public operations that cost something (an account, an
 * order and a payment session, a status lookup that may ask Stripe), and
 * per-key limits (an email, a creator). Sliding windows, counted where every
 * process that serves the database sees them:
 * - one process on SQLite (ROLE=all, the default): in this process's memory,
 *   synchronously (two requests cannot both take the last slot), at no query's
 *   cost; a restart only forgets the last window;
 * - PostgreSQL, or web and worker processes apart (ROLE=web or worker): in the
 *   database (shared-rate-limits.server.ts; the key as an HMAC under a key
 *   derived from the app secret, counted-keys.server.ts, for a day at most), so several web processes behind a load balancer count one address
 *   together instead of each allowing it the whole limit.
 * Sign-in throttling, which guards passwords, is always kept in the database
 * (login-throttle.server.ts), under a lock per email and per address.
 */
export interface RateLimitRule {
  name: string;
  /** The setting that holds how many calls one address may make in the window. */
  setting:
    | "REGISTRATIONS_PER_ADDRESS"
    | "CHECKOUTS_PER_ADDRESS"
    | "PAYMENT_STATUS_PER_ADDRESS"
    | "LIBRARY_LINKS_PER_ADDRESS"
    | "SEARCHES_PER_ADDRESS"
    | "WAITLIST_REQUESTS_PER_ADDRESS"
    | "REPORTS_PER_ADDRESS"
    | "FOLLOWS_PER_ADDRESS";
  windowMs: number;
  /** What the caller is told, followed by when to try again. */
  message: string;
}

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/** Each per-address rule by name: [the setting that holds its limit, its window, what the caller is told]. */
const ADDRESS_RULES = {
  registration: ["REGISTRATIONS_PER_ADDRESS", HOUR_MS, "Too many sign-ups from your network."],
  checkout: [
    "CHECKOUTS_PER_ADDRESS",
    10 * MINUTE_MS,
    "Too many checkouts started from your network.",
  ],
  "payment-status": ["PAYMENT_STATUS_PER_ADDRESS", MINUTE_MS, "Too many payment status checks."],
  "library-link": [
    "LIBRARY_LINKS_PER_ADDRESS",
    HOUR_MS,
    "Too many library link requests from your network.",
  ],
  search: ["SEARCHES_PER_ADDRESS", MINUTE_MS, "Too many searches from your network."],
  waitlist: [
    "WAITLIST_REQUESTS_PER_ADDRESS",
    HOUR_MS,
    "Too many waitlist requests from your network.",
  ],
} as const satisfies Record<string, readonly [RateLimitRule["setting"], number, string]>;

function addressRule(name: keyof typeof ADDRESS_RULES): RateLimitRule {
  const [setting, windowMs, message] = ADDRESS_RULES[name];
  return { name, setting, windowMs, message };
}

/** Accounts created (or attempted) per address while REGISTRATION=open. */
export const REGISTRATION_RATE_LIMIT = addressRule("registration");

/** Checkouts started per address (POST /api/create-checkout-session and the cart's checkout form). */
export const CHECKOUT_RATE_LIMIT = addressRule("checkout");

/** Payment status lookups per address (the API, the payment monitor and the checkout return). */
export const PAYMENT_STATUS_RATE_LIMIT = addressRule("payment-status");

/** Library links asked for per address (POST /api/library-link and the form on /library). */
export const LIBRARY_LINK_RATE_LIMIT = addressRule("library-link");

/** Marketplace searches per address (?q= on /marketplace and /api/marketplace; each page of a search counts). */
export const SEARCH_RATE_LIMIT = addressRule("search");

/** Waitlist requests per address (the Register tab's form while registration is closed). */
export const WAITLIST_RATE_LIMIT = addressRule("waitlist");

/** Reports of listings and storefronts sent per address (POST /api/reports and the form on /report). */
export const REPORT_RATE_LIMIT: RateLimitRule = {
  name: "report",
  setting: "REPORTS_PER_ADDRESS",
  windowMs: 60 * 60 * 1000,
  message: "Too many reports from your network.",
};

/** Follows asked for per address (POST /api/follows and the Follow form). */
export const FOLLOW_RATE_LIMIT: RateLimitRule = {
  name: "follow",
  setting: "FOLLOWS_PER_ADDRESS",
  windowMs: 60 * 60 * 1000,
  message: "Too many follows from your network.",
};

/** Follows asked for with one email, from any address: 5 an hour. */
export const FOLLOW_EMAIL_RATE_LIMIT: KeyRateLimitRule = {
  name: "follow-email",
  limit: 5,
  windowMs: 60 * 60 * 1000,
  message: "Too many follows with this email.",
};

/** Reports sent with one reporter's email, from any address: 5 an hour. */
export const REPORT_EMAIL_RATE_LIMIT: KeyRateLimitRule = {
  name: "report-email",
  limit: 5,
  windowMs: 60 * 60 * 1000,
  message: "Too many reports with this email.",
};

/**
 * A limit counted on something other than the address (an email), with a
 * fixed number of calls. Past it the caller is not told (throttleQuietly
 * answers false): the answer must not say whether the email is known.
 */
export interface QuietRateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
}

/** Library links mailed to one email: 3 an hour, whoever asks. */
export const LIBRARY_LINK_EMAIL_RATE_LIMIT: QuietRateLimitRule = {
  name: "library-link-email",
  limit: 3,
  windowMs: HOUR_MS,
};

/**
 * Messages to one recipient that anyone can make the product send by typing
 * the address (receipts, library links, password-reset links), all kinds
 * together: 10 an hour. Keyed by the hash of the address.
 */
export const MAIL_PER_RECIPIENT_RATE_LIMIT: QuietRateLimitRule = {
  name: "mail-recipient",
  limit: 10,
  windowMs: HOUR_MS,
};

/** Sliding-window counters by key; synchronous, so concurrent requests cannot both take the last slot. */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, { windowMs: number; at: number[] }>();
  private calls = 0;

  /** Counts one hit, or answers the milliseconds until one would be allowed (nothing is counted then). */
  take(key: string, limit: number, windowMs: number, nowMs: number): number {
    if (++this.calls % 1000 === 0) this.sweep(nowMs);
    const at = (this.hits.get(key)?.at ?? []).filter((time) => time > nowMs - windowMs);
    this.hits.set(key, { windowMs, at });
    if (at.length >= limit) return Math.max(1, at[at.length - limit] + windowMs - nowMs);
    at.push(nowMs);
    return 0;
  }

  /** Forgets keys with no hit left in their window. */
  private sweep(nowMs: number) {
    for (const [key, { windowMs, at }] of this.hits) {
      if (at.length === 0 || at[at.length - 1] <= nowMs - windowMs) this.hits.delete(key);
    }
  }
}

const limiter = new SlidingWindowLimiter();

/** What a count needs: the database (a transaction joins it) and the time; the settings when the caller has them. */
export interface CountingContext {
  db: DB;
  now: Date;
  config?: Pick<Config, "ROLE">;
}

/** Whether limits are counted in the database: several processes may serve it (PostgreSQL, or ROLE other than all). */
export function countsInDatabase(ctx: CountingContext): boolean {
  return engineOf(ctx.db) === "postgres" || (ctx.config ?? getConfig()).ROLE !== "all";
}

/** Counts one hit on the rule's `key` where this deployment counts (see the top of this file); the wait in ms, 0 when counted. */
async function take(
  ctx: CountingContext,
  rule: { name: string; limit: number; windowMs: number },
  key: string,
): Promise<number> {
  if (!countsInDatabase(ctx))
    return limiter.take(`${rule.name}:${key}`, rule.limit, rule.windowMs, ctx.now.getTime());
  // Stored, the key (an address, an email) is kept as a keyed hash, as the sign-in throttle keeps it.
  const bucket = `${rule.name}:${countedKeyHash(key)}`;
  return takeSharedHit(ctx.db, bucket, rule.limit, rule.windowMs, ctx.now);
}

/** "2 minutes", "1 second": a wait as people say it. */
export function waitText(seconds: number): string {
  const [amount, unit] = seconds < 60 ? [seconds, "second"] : [Math.ceil(seconds / 60), "minute"];
  return `${amount} ${unit}${amount === 1 ? "" : "s"}`;
}

/**
 * Counts this call against the rule for the caller's address, or throws 429
 * with Retry-After. The address is the request's clientIp: an IPv4 address or
 * an IPv6 client's /64 (app/web/client-address.server.ts), so one network's
 * many IPv6 addresses share one count.
 */
export async function throttle(
  ctx: Pick<CallContext, "clientIp" | "now" | "config" | "db">,
  rule: RateLimitRule,
): Promise<void> {
  await throttleKey(ctx, { ...rule, limit: limitOf(rule, ctx.config) }, ctx.clientIp);
}

/** A fixed limit counted on any key (an address, a hashed email), told to the caller when reached. */
export interface KeyRateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
  /** What the caller is told, followed by when to try again. */
  message: string;
}

/** Counts this call against the rule for `key`, or throws 429 with Retry-After. */
export async function throttleKey(
  ctx: CountingContext,
  rule: KeyRateLimitRule,
  key: string,
): Promise<void> {
  const waitMs = await take(ctx, rule, key);
  if (waitMs > 0) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw tooManyRequests(seconds, `${rule.message} Try again in ${waitText(seconds)}.`);
  }
}

/**
 * A public form that mails the address typed into it (a follow, a report):
 * counts the call against `perAddress` for the caller's address and against
 * `perEmail` for that address, lower-cased, before anything is read or
 * stored, so a flood is a 429 with Retry-After that leaves nothing.
 */
export async function throttleMailingForm(
  ctx: Pick<CallContext, "clientIp" | "now" | "config" | "db">,
  rules: { perAddress: RateLimitRule; perEmail: KeyRateLimitRule },
  email: string,
): Promise<void> {
  await throttle(ctx, rules.perAddress);
  await throttleKey(ctx, rules.perEmail, email.trim().toLowerCase());
}

/** Counts this call against the rule for `key`; answers false (counting nothing) past the limit. */
export async function throttleQuietly(
  ctx: CountingContext,
  rule: QuietRateLimitRule,
  key: string,
): Promise<boolean> {
  return (await take(ctx, rule, key)) === 0;
}

/** How many calls one address may make in the rule's window, as configured. */
export function limitOf(
  rule: RateLimitRule,
  config: Pick<Config, RateLimitRule["setting"]>,
): number {
  return config[rule.setting];
}
