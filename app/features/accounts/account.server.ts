import type { DB } from "~/infra/db.server";
import type { UserRow } from "#db/schema";
import type { Account } from "~/features/accounts/account-types";

/**
 * The signed-in person's own account as the settings and `GET /api/account`
 * show it: the profile, an email change waiting for its link (the newest one
 * not yet used nor expired), and the face-processing consent (given, when, and
 * the version of the text agreed to, when it is `faceConsentVersion`, the
 * version of the text the person would be shown now; privacy names it).
 */
export async function accountOf(
  db: DB,
  user: UserRow,
  now: Date,
  faceConsentVersion: string,
): Promise<Account> {
  const pending = await db
    .selectFrom("email_changes")
    .select("new_email")
    .where("user_id", "=", user.id)
    .where("used_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  // Consent to another text (an earlier wording, another engine) does not count: the creator is asked again.
  const consentGiven =
    user.face_consent_at !== null && user.face_consent_version === faceConsentVersion;
  return {
    id: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    profileImageUrl: user.profile_image_url,
    handle: user.handle,
    bio: user.bio,
    createdAt: user.created_at,
    pendingEmail: pending?.new_email ?? null,
    consent: {
      faceProcessing: {
        given: consentGiven,
        at: consentGiven ? user.face_consent_at : null,
        version: consentGiven ? user.face_consent_version : null,
      },
    },
  };
}
