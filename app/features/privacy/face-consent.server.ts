import type { UserRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { notFound } from "~/infra/errors.server";
import { FACE_CONSENT_VERSION } from "~/features/privacy/face-consent";
import { setFaceConsent } from "~/features/accounts/public.server";

/**
 * Records the user's consent to face processing: the version of the text they
 * were shown (the current one) and when. Answers the updated user.
 */
export async function recordFaceConsent(db: DB, userId: string, now: Date): Promise<UserRow> {
  const row = await setFaceConsent(db, userId, { version: FACE_CONSENT_VERSION, at: now }, now);
  if (!row) throw notFound("User not found");
  return row;
}

/**
 * Withdraws the consent, then calls off the user's waiting styles with
 * `cancelStyles`, in one transaction: from the commit on, no style of theirs
 * is queued (the stylize insert and the job check the consent again).
 */
export async function withdrawFaceConsent(
  db: DB,
  userId: string,
  now: Date,
  cancelStyles: (trx: DB) => Promise<unknown>,
): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const row = await setFaceConsent(trx, userId, null, now);
    if (!row) throw notFound("User not found");
    await cancelStyles(trx);
    return row;
  });
}
