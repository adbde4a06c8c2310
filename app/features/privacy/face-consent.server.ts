import crypto from "node:crypto";
import type { UserRow } from "#db/schema";
import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { notFound } from "~/infra/errors.server";
import { newId } from "~/infra/ids.server";
import { styleEngineInUse } from "~/engines/styling/select-style-engine.server";
import { faceConsentText, type ConsentEngine } from "~/features/privacy/face-consent";
import { findUserById, setFaceConsent } from "~/features/accounts/public.server";

/** What the consent log calls the consent to face processing. */
export const FACE_PROCESSING = "face-processing";

/** A text a person is asked to agree to: its lines, and the version that names exactly them. */
export interface FaceConsentText {
  version: string;
  paragraphs: string[];
}

/**
 * The version of a consent text: the engine it describes and the first 16 hex
 * digits of the SHA-256 of its lines (`local-…`, `fal-…`). Any change of the
 * words (another engine, another expiry, an edited sentence) is another
 * version, and whoever agreed to the earlier one is asked again.
 */
export function faceConsentVersion(engine: ConsentEngine): string {
  return `${engine.kind}-${hashOfLines(faceConsentText(engine))}`;
}

function hashOfLines(lines: string[]): string {
  return crypto.createHash("sha256").update(lines.join("\n"), "utf8").digest("hex").slice(0, 16);
}

/** The text a person would be shown now, for the engine this configuration styles with. */
export function currentFaceConsent(config: Config): FaceConsentText {
  const engine = styleEngineInUse(config);
  return { version: faceConsentVersion(engine), paragraphs: faceConsentText(engine) };
}

/** The version of the text a person would be shown now: the one a consent must be to, to count. */
export function currentFaceConsentVersion(config: Config): string {
  return currentFaceConsent(config).version;
}

/** Runs `work` in a transaction, or in the caller's when `db` already is one. */
function inTransaction<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** One line of the consent log: the user granted (with the text they were shown) or withdrew a version. */
async function logFaceConsent(
  trx: DB,
  entry: {
    userId: string;
    action: "grant" | "withdraw";
    version: string;
    text: string | null;
    now: Date;
  },
): Promise<void> {
  await trx
    .insertInto("consent_log")
    .values({
      id: newId(),
      user_id: entry.userId,
      purpose: FACE_PROCESSING,
      action: entry.action,
      text_version: entry.version,
      text: entry.text,
      at: entry.now.toISOString(),
    })
    .execute();
}

/**
 * Records the user's consent to face processing: the version of the text they
 * were shown and when, on the account, and a grant in the consent log with
 * the lines themselves, in one transaction. Answers the updated user.
 */
export async function recordFaceConsent(
  db: DB,
  userId: string,
  now: Date,
  text: FaceConsentText,
): Promise<UserRow> {
  return inTransaction(db, async (trx) => {
    const row = await setFaceConsent(trx, userId, { version: text.version, at: now }, now);
    if (!row) throw notFound("User not found");
    await logFaceConsent(trx, {
      userId,
      action: "grant",
      version: text.version,
      text: JSON.stringify(text.paragraphs),
      now,
    });
    return row;
  });
}

/**
 * Withdraws the consent, records the withdrawal in the consent log (with the
 * version withdrawn from; a user with no consent recorded adds no row), then
 * calls off the user's waiting styles with `cancelStyles`, in one
 * transaction: from the commit on, no style of theirs is queued (the stylize
 * insert and the job check the consent again).
 */
export async function withdrawFaceConsent(
  db: DB,
  userId: string,
  now: Date,
  cancelStyles: (trx: DB) => Promise<unknown>,
): Promise<UserRow> {
  return inTransaction(db, async (trx) => {
    const before = await findUserById(trx, userId);
    const row = await setFaceConsent(trx, userId, null, now);
    if (!before || !row) throw notFound("User not found");
    if (before.face_consent_at !== null && before.face_consent_version !== null) {
      await logFaceConsent(trx, {
        userId,
        action: "withdraw",
        version: before.face_consent_version,
        text: null,
        now,
      });
    }
    await cancelStyles(trx);
    return row;
  });
}

/** One entry of a person's consent log, as their export and Settings show it. */
export interface ConsentLogEntry {
  purpose: string;
  action: "grant" | "withdraw";
  textVersion: string;
  /** The lines agreed to (a grant); null for a withdrawal. */
  text: string[] | null;
  at: string;
}

/** A user's consent log, oldest first. */
export async function consentLogOf(db: DB, userId: string): Promise<ConsentLogEntry[]> {
  const rows = await db
    .selectFrom("consent_log")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    purpose: row.purpose,
    action: row.action,
    textVersion: row.text_version,
    text: row.text === null ? null : (JSON.parse(row.text) as string[]),
    at: row.at,
  }));
}

/** The erasure's part: the user's consent log goes with the account. */
export async function eraseConsentLogOf(db: DB, userId: string): Promise<void> {
  await db.deleteFrom("consent_log").where("user_id", "=", userId).execute();
}
