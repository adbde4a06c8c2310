import type { UserRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { badRequest, HttpError } from "~/infra/errors.server";
import { isUniqueViolation } from "~/infra/database-errors.server";
import { newId, newSecretToken, sha256 } from "~/infra/ids.server";
import { findUserByEmail } from "~/features/accounts/users.server";
import { recordAuditEntry } from "~/features/audit/public.server";

/**
 * Email changes by a link mailed to the new address. Asking stores only the
 * sha256 of the link's random token (email_changes.token_hash), never the
 * token; the address changes only when the signed-in owner opens the link
 * and presses its button, within EMAIL_CHANGE_LINK_HOURS, once. A newer
 * request replaces an older one still waiting.
 */

export const EMAIL_CHANGE_LINK_HOURS = 24;
const LINK_MS = EMAIL_CHANGE_LINK_HOURS * 60 * 60 * 1000;

export const EMAIL_IN_USE = "An account with this email already exists";
export const EMAIL_UNCHANGED = "This is already your email address";
export const EMAIL_CHANGE_LINK_INVALID =
  "This email change link is not valid or was already used. Ask for a new one in Settings.";
export const EMAIL_CHANGE_LINK_EXPIRED =
  "This email change link has expired. Ask for a new one in Settings.";

/** The absolute link the mail to the new address carries. */
export function emailChangeLink(origin: string, token: string): string {
  return `${origin}/settings/confirm-email?token=${encodeURIComponent(token)}`;
}

/** Refuses the user's own address (400): nothing to change. */
export function assertNotOwnEmail(user: UserRow, email: string): void {
  if (email === user.email) throw badRequest(EMAIL_UNCHANGED, { email: [EMAIL_UNCHANGED] });
}

/**
 * The account that has `email`, if any. Asking for a change to it is answered
 * as for a free address (the answer must not tell which addresses have
 * accounts); only using a link checks again and answers 409.
 */
export async function holderOfEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return findUserByEmail(db, email);
}

/** 409 for an address another account has: the API's `{message}`, and the form's field error. */
const emailInUse = () => new HttpError(409, EMAIL_IN_USE, { email: [EMAIL_IN_USE] });

/**
 * Records a waiting change to `email` (replacing any other of the user's) and
 * answers the link's token. Call it in a transaction (with the mail that carries the link).
 */
export async function startEmailChange(
  trx: DB,
  user: UserRow,
  email: string,
  now: Date,
): Promise<string> {
  const token = newSecretToken();
  await trx
    .deleteFrom("email_changes")
    .where("user_id", "=", user.id)
    .where("used_at", "is", null)
    .execute();
  await trx
    .insertInto("email_changes")
    .values({
      id: newId(),
      user_id: user.id,
      new_email: email,
      token_hash: sha256(token),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + LINK_MS).toISOString(),
      used_at: null,
    })
    .execute();
  return token;
}

/** The waiting change a token names for this user; a 400 for an unknown, another user's, used or expired link. */
export async function findEmailChange(db: DB, user: UserRow, token: string, now: Date) {
  const row = await db
    .selectFrom("email_changes")
    .selectAll()
    .where("token_hash", "=", sha256(token.trim()))
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (!row || row.used_at !== null)
    throw badRequest(EMAIL_CHANGE_LINK_INVALID, { token: [EMAIL_CHANGE_LINK_INVALID] });
  if (row.expires_at <= now.toISOString())
    throw badRequest(EMAIL_CHANGE_LINK_EXPIRED, { token: [EMAIL_CHANGE_LINK_EXPIRED] });
  return row;
}

/**
 * Uses a link: marks it used and sets the new address, in one transaction
 * (of two uses at once exactly one changes anything). An address another
 * account took meanwhile, even at the same moment, is a 409 and changes nothing. The user's web
 * sessions and API tokens keep working: the person and the password are the same.
 */
export async function confirmEmailChange(
  db: DB,
  user: UserRow,
  token: string,
  now: Date,
): Promise<UserRow> {
  const change = await findEmailChange(db, user, token, now);
  try {
    return await applyEmailChange(db, user, change, now);
  } catch (error) {
    // Another account took the address between the check and the update (two confirmations at once).
    if (isUniqueViolation(error, { table: "users", column: "email" })) throw emailInUse();
    throw error;
  }
}

async function applyEmailChange(
  db: DB,
  user: UserRow,
  change: Awaited<ReturnType<typeof findEmailChange>>,
  now: Date,
): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable("email_changes")
      // The address it replaces stays known until the account's erasure, which forgets its mail too.
      .set((eb) => ({
        used_at: now.toISOString(),
        previous_email: eb.selectFrom("users").select("email").where("id", "=", user.id),
      }))
      .where("id", "=", change.id)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1)
      throw badRequest(EMAIL_CHANGE_LINK_INVALID, { token: [EMAIL_CHANGE_LINK_INVALID] });
    const holder = await trx
      .selectFrom("users")
      .select("id")
      .where("email", "=", change.new_email)
      .executeTakeFirst();
    if (holder && holder.id !== user.id) throw emailInUse();
    await trx
      .deleteFrom("email_changes")
      .where("user_id", "=", user.id)
      .where("used_at", "is", null)
      .execute();
    // The log names the account, not the addresses (an erasure must not leave them behind).
    await recordAuditEntry(trx, {
      actorId: user.id,
      action: "user.email_change",
      subjectId: user.id,
      now,
    });
    return trx
      .updateTable("users")
      .set({ email: change.new_email, updated_at: now.toISOString() })
      .where("id", "=", user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}
