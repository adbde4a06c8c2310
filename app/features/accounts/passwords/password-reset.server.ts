import crypto from "node:crypto";
import type { UserRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { deriveKey } from "~/infra/keys.server";
import { badRequest } from "~/infra/errors.server";
import { sha256 } from "~/infra/ids.server";
import { throttleKey, type CountingContext } from "~/infra/rate-limit.server";
import { findUserById } from "~/features/accounts/users.server";
import { hashPassword } from "~/features/accounts/passwords/passwords.server";
import { assertAcceptableNewPassword } from "~/features/accounts/passwords/common-passwords.server";
import { revokeAllCredentials } from "~/features/accounts/sessions/sessions.server";

/**
 * Password reset links (docs/decisions/020-password-reset-links.md). A link's
 * token is signed, not stored: the user id, the expiry and an HMAC over both
 * and a fingerprint of the user's email and current password hash. Setting a
 * password changes the hash (a fresh salt every time), so every link made
 * before dies: a link works once, and asking twice leaves both valid only
 * until one is used.
 */

export const RESET_LINK_MINUTES = 60;
const RESET_LINK_MS = RESET_LINK_MINUTES * 60 * 1000;
const KEY_PURPOSE = "password-reset-link";

export const RESET_LINK_EXPIRED = "This password reset link has expired. Ask for a new one.";
export const RESET_LINK_INVALID =
  "This password reset link is not valid or has already been used. Ask for a new one.";

const base64url = (value: string) => Buffer.from(value, "utf8").toString("base64url");

function mac(
  secret: string,
  userId: string,
  expiresAt: number,
  email: string,
  passwordHash: string,
): Buffer {
  return crypto
    .createHmac("sha256", deriveKey(KEY_PURPOSE, secret))
    .update(`${userId}\u0000${expiresAt}\u0000${sha256(`${email}\u0000${passwordHash}`)}`)
    .digest();
}

/** A token for this user's password as it is now, valid for 60 minutes from `now`. */
export function signResetToken(
  secret: string,
  user: Pick<UserRow, "id" | "email" | "password_hash">,
  now: Date,
): string {
  const expiresAt = Math.floor((now.getTime() + RESET_LINK_MS) / 1000);
  const signature = mac(secret, user.id, expiresAt, user.email, user.password_hash);
  return `${base64url(user.id)}.${expiresAt.toString(36)}.${signature.toString("base64url")}`;
}

/** The absolute link the mail carries. */
export function resetLink(origin: string, token: string): string {
  return `${origin}/reset-password?token=${encodeURIComponent(token)}`;
}

const TOKEN_SHAPE = /^([A-Za-z0-9_-]{1,200})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * The user a token was made for, with the password hash it was made against;
 * a 400 for a token that is malformed, expired, forged, made before the
 * password last changed, or for a banned or deleted user.
 */
export async function verifyResetToken(
  db: DB,
  secret: string,
  token: string,
  now: Date,
): Promise<UserRow> {
  const match = TOKEN_SHAPE.exec(token.trim());
  if (!match) throw badRequest(RESET_LINK_INVALID, { token: [RESET_LINK_INVALID] });
  const userId = Buffer.from(match[1], "base64url").toString("utf8");
  const expiresAt = parseInt(match[2], 36);
  if (!Number.isSafeInteger(expiresAt))
    throw badRequest(RESET_LINK_INVALID, { token: [RESET_LINK_INVALID] });
  if (expiresAt * 1000 <= now.getTime())
    throw badRequest(RESET_LINK_EXPIRED, { token: [RESET_LINK_EXPIRED] });
  const user = await findUserById(db, userId);
  const given = Buffer.from(match[3], "base64url");
  const expected = user
    ? mac(secret, user.id, expiresAt, user.email, user.password_hash)
    : crypto.randomBytes(32);
  if (
    !user ||
    user.banned ||
    given.length !== expected.length ||
    !crypto.timingSafeEqual(given, expected)
  ) {
    throw badRequest(RESET_LINK_INVALID, { token: [RESET_LINK_INVALID] });
  }
  return user;
}

/**
 * Sets a new password (which must pass the new-password rules) with a valid token, and ends every web session and API
 * token of the user. The password changes only if it is still the one the
 * token was made against (compare and set in one transaction), so of two
 * concurrent uses of one link exactly one succeeds.
 */
export async function resetPasswordWithToken(
  db: DB,
  secret: string,
  input: { token: string; password: string },
  now: Date,
): Promise<UserRow> {
  const user = await verifyResetToken(db, secret, input.token, now);
  assertAcceptableNewPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const changed = await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: now.toISOString() })
      .where("id", "=", user.id)
      .where("password_hash", "=", user.password_hash)
      .where("banned", "=", 0)
      .where("erased_at", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await revokeAllCredentials(trx, user.id);
    return true;
  });
  if (!changed) throw badRequest(RESET_LINK_INVALID, { token: [RESET_LINK_INVALID] });
  return { ...user, password_hash: passwordHash };
}

/**
 * How often a reset may be asked for: per email (whether or not it has an
 * account, so the answer tells nothing) and per client address, over an
 * hour. Counted like the other public limits (rate-limit.server.ts): in
 * memory on one SQLite process, in the database when several processes serve.
 */
export const RESET_WINDOW_MS = 60 * 60 * 1000;
export const RESETS_PER_EMAIL = 5;
export const RESETS_PER_ADDRESS = 20;

const RESET_MESSAGE = "Too many password reset requests.";

export async function throttleResetRequest(
  ctx: CountingContext & { clientIp: string },
  email: string,
): Promise<void> {
  await throttleKey(
    ctx,
    {
      name: "reset-address",
      limit: RESETS_PER_ADDRESS,
      windowMs: RESET_WINDOW_MS,
      message: RESET_MESSAGE,
    },
    ctx.clientIp,
  );
  await throttleKey(
    ctx,
    {
      name: "reset-email",
      limit: RESETS_PER_EMAIL,
      windowMs: RESET_WINDOW_MS,
      message: RESET_MESSAGE,
    },
    sha256(email.trim().toLowerCase()),
  );
}
