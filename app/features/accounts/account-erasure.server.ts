import type { DB } from "~/infra/db.server";
import { badRequest, notFound } from "~/infra/errors.server";
import { SUPER_ADMIN_ID } from "~/lib/accounts";
import { revokeAllCredentials } from "~/features/accounts/sessions/sessions.server";
import { checkCurrentPassword } from "~/features/accounts/passwords/current-password.server";
import { forgetRegistrationLinksTo } from "~/features/accounts/registration/registration-links.server";

/** The names an erased account shows wherever its sales are listed (the admin's tables, old audit entries). */
export const ERASED_FIRST_NAME = "Deleted";
export const ERASED_LAST_NAME = "creator";

/** The address an erased account keeps: unique (the id), and `.invalid` can never receive mail (RFC 2606). */
export function erasedEmail(userId: string): string {
  return `erased-${userId}@invalid`;
}

/** No scrypt hash looks like this, so no password ever matches it (verifyPassword answers false). */
const NO_PASSWORD = "erased";

export const WRONG_PASSWORD = "The password is not correct";
export const SUPER_ADMIN_NOT_ERASABLE = "The super admin's account cannot be erased";

/**
 * The user's own password, checked before they erase their account: 400 with a
 * field error when it does not match, and counted as a sign-in attempt
 * (checkCurrentPassword: 429 past the sign-in limits).
 */
export async function assertOwnPassword(
  db: DB,
  check: { userId: string; password: string; clientIp: string; now: Date },
): Promise<void> {
  const row = await db
    .selectFrom("users")
    .select(["email", "password_hash"])
    .where("id", "=", check.userId)
    .executeTakeFirst();
  if (!row) throw badRequest(WRONG_PASSWORD, { password: [WRONG_PASSWORD] });
  await checkCurrentPassword(
    db,
    {
      email: row.email,
      passwordHash: row.password_hash,
      password: check.password,
      clientIp: check.clientIp,
      now: check.now,
    },
    { message: WRONG_PASSWORD, field: "password" },
  );
}

export interface ClosedAccount {
  /** The address the account had, for the other features to forget (mail queued to it, purchases made with it). */
  email: string;
  /** The addresses it had before, by its email changes (each once; the current one not among them). */
  formerEmails: string[];
  /** The profile photo's address before the erasure, whose file the erasure job removes. */
  profileImageUrl: string | null;
  /** True when the account had been erased before (nothing was changed now). */
  alreadyErased: boolean;
}

/**
 * The accounts' part of an erasure, in the caller's transaction: every web
 * session and API token ends, the email changes go (waiting ones, and used
 * ones, whose addresses are answered for the other features to forget), the
 * registration links waiting for the address go, the verified face (its
 * descriptor) goes, and
 * the row becomes a tombstone at once: the email is replaced by
 * `erased-<id>@invalid` (so the address can register again), the names by
 * "Deleted creator", the password by one nothing matches, and the handle, bio,
 * photo and consent are cleared; `erased_at` records when. The row itself
 * stays: sales, shares and audit entries name its id. 404 for an unknown
 * user; the super admin cannot be erased (400).
 */
export async function closeAccountForErasure(
  trx: DB,
  userId: string,
  now: Date,
): Promise<ClosedAccount> {
  if (userId === SUPER_ADMIN_ID) throw badRequest(SUPER_ADMIN_NOT_ERASABLE);
  const user = await trx
    .selectFrom("users")
    .select(["email", "profile_image_url", "erased_at"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) throw notFound("User not found");
  await revokeAllCredentials(trx, userId);
  const formerEmails = await formerEmailsOf(trx, userId, user.email);
  await trx.deleteFrom("email_changes").where("user_id", "=", userId).execute();
  // The verified face: a face descriptor, biometric data (decision record 083).
  await trx.deleteFrom("verified_faces").where("user_id", "=", userId).execute();
  // A registration link mailed before the erasure must not make the account again.
  await forgetRegistrationLinksTo(trx, user.email);
  // The waitlist keeps the address: its entry goes with the account.
  await trx
    .deleteFrom("waitlist")
    .where((eb) => eb.or([eb("user_id", "=", userId), eb("email", "=", user.email)]))
    .execute();
  if (user.erased_at)
    return { email: user.email, formerEmails, profileImageUrl: null, alreadyErased: true };
  const stamp = now.toISOString();
  await trx
    .updateTable("users")
    .set({
      email: erasedEmail(userId),
      first_name: ERASED_FIRST_NAME,
      last_name: ERASED_LAST_NAME,
      password_hash: NO_PASSWORD,
      profile_image_url: null,
      handle: null,
      bio: null,
      face_consent_version: null,
      face_consent_at: null,
      erased_at: stamp,
      updated_at: stamp,
    })
    .where("id", "=", userId)
    .execute();
  return {
    email: user.email,
    formerEmails,
    profileImageUrl: user.profile_image_url,
    alreadyErased: false,
  };
}

/**
 * Every address the account had besides `current`: those its used email
 * changes replaced (recorded since migration 0041) and those they set.
 */
async function formerEmailsOf(trx: DB, userId: string, current: string): Promise<string[]> {
  const changes = await trx
    .selectFrom("email_changes")
    .select(["new_email", "previous_email"])
    .where("user_id", "=", userId)
    .where("used_at", "is not", null)
    .execute();
  const addresses = new Set(changes.flatMap((change) => [change.previous_email, change.new_email]));
  addresses.delete(current);
  addresses.delete(null);
  return [...addresses] as string[];
}
