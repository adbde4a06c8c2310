import crypto from "node:crypto";
import type { DB } from "~/infra/db.server";
import { sha256 } from "~/infra/ids.server";
import { countedKeyHash } from "~/infra/counted-keys.server";
import { lockForTransaction } from "~/infra/sql-dialect.server";

/**
 * Sign-in throttling (docs/decisions/012-sign-in-throttles.md), kept in the
 * database so a restart does not reset it.
 *
 * An attempt is reserved before its password is checked, in one transaction
 * that reads the limits and writes the reservation (login_attempts), so
 * concurrent attempts count at once. A failure moves it to auth_failures; a
 * success removes it, so successful sign-ins never count. Reserving and
 * recording a failure first take the email's lock, then the address's
 * (lockForTransaction; always in that order, so two never wait on each other):
 * on PostgreSQL, where transactions run side by side, attempts on one email or
 * from one address are still counted one after the other.
 *
 * Limits, over a sliding window of 15 minutes:
 * - 5 passwords checked per email and client address;
 * - 20 per client address, across emails;
 * - once an email has 5 failures or attempts in progress from any address, it
 *   is slowed down rather than locked: an address that has already failed for
 *   it waits 1 s, 2 s, 4 s, ... (doubling per email-wide failure, at most the
 *   window) after its own previous attempt; an address with no failure for it
 *   (a newcomer) waits only while another newcomer's attempt is younger than
 *   5 s, so the owner signing in from a fresh address is held for seconds at
 *   most, and an email gets at most one newcomer check per 5 s.
 */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const EMAIL_SLOWDOWN_AFTER = 5;
export const SLOWDOWN_BASE_MS = 1000;
export const SLOWDOWN_MAX_MS = LOGIN_WINDOW_MS;
export const NEWCOMER_SPACING_MS = 5000;

const emailKeyOf = (email: string) => countedKeyHash(`email:${email.trim().toLowerCase()}`);
const addressKeyOf = (address: string) => countedKeyHash(`address:${address}`);

/** The keyed hashes (counted-keys.server.ts) an email and a client address are counted under. */
export function loginKeysOf(email: string, address: string) {
  return { emailKey: emailKeyOf(email), addressKey: addressKeyOf(address) };
}

const buckets = (emailKey: string, addressKey: string) => ({
  email: `email:${emailKey}`,
  address: `ip:${addressKey}`,
  pair: `pair:${sha256(`${emailKey}:${addressKey}`)}`,
  /** Failures from an address that had not failed for this email before. */
  newcomer: `newcomer:${emailKey}`,
});

export interface LoginReservation {
  id: string;
  emailKey: string;
  addressKey: string;
  newcomer: boolean;
}

export type LoginReservationResult =
  { ok: true; reservation: LoginReservation } | { ok: false; retryAfterSeconds: number };

/** Milliseconds, newest first, of timestamps as ISO strings. */
const times = (rows: { created_at: string }[]) =>
  rows.map((row) => Date.parse(row.created_at)).sort((a, b) => b - a);

/** How long until fewer than `limit` of these (newest first) are inside the window. */
function waitForRoom(newestFirst: number[], limit: number, nowMs: number): number {
  if (newestFirst.length < limit) return 0;
  return newestFirst[limit - 1] + LOGIN_WINDOW_MS - nowMs;
}

/** The spacing an address that already failed for an email keeps, given the email-wide count. */
export function slowdownMs(emailWideCount: number): number {
  if (emailWideCount < EMAIL_SLOWDOWN_AFTER) return 0;
  const doublings = Math.min(emailWideCount - EMAIL_SLOWDOWN_AFTER, 30);
  return Math.min(SLOWDOWN_MAX_MS, SLOWDOWN_BASE_MS * 2 ** doublings);
}

/** Holds the email's, then the address's, sign-in count until the transaction ends. */
async function lockCounts(trx: DB, emailKey: string, addressKey: string): Promise<void> {
  await lockForTransaction(trx, `sign-in-email:${emailKey}`);
  await lockForTransaction(trx, `sign-in-address:${addressKey}`);
}

/**
 * Reserves one password check for this email from this address, or says how
 * many seconds to wait. Reads and writes in one transaction holding the
 * email's and the address's locks, so concurrent attempts see each other.
 */
export function reserveLoginAttempt(
  db: DB,
  email: string,
  address: string,
  now = new Date(),
): Promise<LoginReservationResult> {
  const { emailKey, addressKey } = loginKeysOf(email, address);
  const bucket = buckets(emailKey, addressKey);
  const nowMs = now.getTime();
  const since = new Date(nowMs - LOGIN_WINDOW_MS).toISOString();

  return db.transaction().execute(async (trx) => {
    await lockCounts(trx, emailKey, addressKey);
    const failuresIn = (name: string, limit: number) =>
      trx
        .selectFrom("auth_failures")
        .select("created_at")
        .where("bucket", "=", name)
        .where("created_at", ">", since)
        .orderBy("created_at", "desc")
        .limit(limit)
        .execute();
    const pending = trx.selectFrom("login_attempts").where("created_at", ">", since);

    const pairFailures = await failuresIn(bucket.pair, MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS);
    const pairFailed = pairFailures.length > 0;
    const pairTimes = times([
      ...pairFailures,
      ...(await pending
        .select("created_at")
        .where("email_hash", "=", emailKey)
        .where("address_hash", "=", addressKey)
        .execute()),
    ]);
    const addressTimes = times([
      ...(await failuresIn(bucket.address, MAX_FAILURES_PER_ADDRESS)),
      ...(await pending.select("created_at").where("address_hash", "=", addressKey).execute()),
    ]);

    let wait = Math.max(
      waitForRoom(pairTimes, MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS, nowMs),
      waitForRoom(addressTimes, MAX_FAILURES_PER_ADDRESS, nowMs),
    );

    const emailFailures = await trx
      .selectFrom("auth_failures")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("bucket", "=", bucket.email)
      .where("created_at", ">", since)
      .executeTakeFirstOrThrow();
    const emailPending = await pending
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("email_hash", "=", emailKey)
      .executeTakeFirstOrThrow();
    const emailWide = Number(emailFailures.n) + Number(emailPending.n);

    if (emailWide >= EMAIL_SLOWDOWN_AFTER) {
      if (pairFailed) {
        // This address already failed for the email: growing spacing after its own last attempt.
        wait = Math.max(wait, pairTimes[0] + slowdownMs(emailWide) - nowMs);
      } else {
        // A newcomer for this email: held only while another newcomer's attempt is a few seconds old.
        const newcomerTimes = times([
          ...(await failuresIn(bucket.newcomer, 1)),
          ...(await pending
            .select("created_at")
            .where("email_hash", "=", emailKey)
            .where("newcomer", "=", 1)
            .orderBy("created_at", "desc")
            .limit(1)
            .execute()),
        ]);
        if (newcomerTimes.length > 0)
          wait = Math.max(wait, newcomerTimes[0] + NEWCOMER_SPACING_MS - nowMs);
      }
    }

    if (wait > 0)
      return { ok: false as const, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };

    const reservation: LoginReservation = {
      id: crypto.randomUUID(),
      emailKey,
      addressKey,
      newcomer: !pairFailed,
    };
    await trx
      .insertInto("login_attempts")
      .values({
        id: reservation.id,
        email_hash: emailKey,
        address_hash: addressKey,
        newcomer: reservation.newcomer ? 1 : 0,
        created_at: now.toISOString(),
      })
      .execute();
    return { ok: true as const, reservation };
  });
}

/** The password was wrong (or the email unknown): the reservation becomes a counted failure. */
export function recordLoginFailure(
  db: DB,
  reservation: LoginReservation,
  now = new Date(),
): Promise<void> {
  const bucket = buckets(reservation.emailKey, reservation.addressKey);
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    // The move from login_attempts to auth_failures is seen whole by a reservation counting both.
    await lockCounts(trx, reservation.emailKey, reservation.addressKey);
    await trx.deleteFrom("login_attempts").where("id", "=", reservation.id).execute();
    const names = [
      bucket.email,
      bucket.address,
      bucket.pair,
      ...(reservation.newcomer ? [bucket.newcomer] : []),
    ];
    await trx
      .insertInto("auth_failures")
      .values(names.map((name) => ({ bucket: name, created_at: at })))
      .execute();
    // Keep both tables small: forget what is older than the window.
    const before = new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();
    await trx.deleteFrom("auth_failures").where("created_at", "<", before).execute();
    await trx.deleteFrom("login_attempts").where("created_at", "<", before).execute();
  });
}

/** The password was right, or it was never checked: the reservation does not count. */
export async function releaseLoginAttempt(db: DB, reservation: LoginReservation): Promise<void> {
  await db.deleteFrom("login_attempts").where("id", "=", reservation.id).execute();
}

/** Forgets sign-in counts past their window: each failure does so too, and this runs hourly for the quiet times. */
export async function forgetOldSignInCounts(db: DB, now: Date): Promise<void> {
  const before = new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();
  await db.deleteFrom("auth_failures").where("created_at", "<", before).execute();
  await db.deleteFrom("login_attempts").where("created_at", "<", before).execute();
}
