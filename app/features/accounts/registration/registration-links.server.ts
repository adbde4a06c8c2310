import crypto from "node:crypto";
import { z } from "zod";
import type { DB } from "~/infra/db.server";
import { badRequest } from "~/infra/errors.server";
import { newSecretToken, sha256 } from "~/infra/ids.server";
import { deriveKey } from "~/infra/keys.server";
import { CryptoBoxError, open, seal } from "~/infra/crypto-box.server";

/**
 * A registration waits in the link mailed to its address: the token is the
 * registration (email, names, the password's scrypt hash, a random nonce, an
 * expiry) sealed with AES-256-GCM under a key of its own
 * (crypto-box.server.ts), so nobody but this server can read or change it.
 * Until the link's page is submitted no account exists, so registering tells
 * nothing about which emails have accounts: a taken email gets a notice
 * instead, and both answers are the same.
 *
 * The database keeps only what makes a link single-use (registration_links):
 * the sha256 of its nonce, a keyed hash of the address and the expiry. Using
 * a link deletes its row, and creating the account (or erasing it) deletes
 * every other link still waiting for that address, so a link never creates a
 * second account, nor re-creates one that was erased.
 */

export const REGISTRATION_LINK_HOURS = 24;
const REGISTRATION_LINK_MS = REGISTRATION_LINK_HOURS * 60 * 60 * 1000;
const PURPOSE = "registration-link";
const ASSOCIATED = "registration";

export const REGISTRATION_LINK_INVALID =
  "This link to create your account is not valid or was already used. Register again to get a new one.";
export const REGISTRATION_LINK_EXPIRED =
  "This link to create your account has expired. Register again to get a new one.";

const sealedRegistration = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  passwordHash: z.string(),
  nonce: z.string(),
  expiresAt: z.number(),
});
export type PendingRegistration = z.infer<typeof sealedRegistration>;

/** The keyed hash a waiting link keeps of its address (never the address). */
export function registrationEmailHash(email: string, secret?: string): string {
  return crypto
    .createHmac("sha256", deriveKey("registration-link-emails", secret))
    .update(email.trim().toLowerCase())
    .digest("hex");
}

/**
 * Seals a registration into a link's token and records the link as waiting
 * (call it in the transaction that queues the mail). Links past their expiry
 * are forgotten on the way.
 */
export async function sealRegistration(
  db: DB,
  secret: string,
  registration: Omit<PendingRegistration, "expiresAt" | "nonce">,
  now: Date,
): Promise<string> {
  const sealed: PendingRegistration = {
    ...registration,
    nonce: newSecretToken(),
    expiresAt: now.getTime() + REGISTRATION_LINK_MS,
  };
  await db.deleteFrom("registration_links").where("expires_at", "<=", now.toISOString()).execute();
  await db
    .insertInto("registration_links")
    .values({
      nonce_hash: sha256(sealed.nonce),
      email_hash: registrationEmailHash(registration.email, secret),
      created_at: now.toISOString(),
      expires_at: new Date(sealed.expiresAt).toISOString(),
    })
    .execute();
  return seal(JSON.stringify(sealed), ASSOCIATED, { secret, purpose: PURPOSE });
}

const invalidLink = () =>
  badRequest(REGISTRATION_LINK_INVALID, { token: [REGISTRATION_LINK_INVALID] });

/** Whether the link is still waiting (not used, not made before its address's account was erased). */
export async function assertLinkWaiting(db: DB, registration: PendingRegistration): Promise<void> {
  const row = await db
    .selectFrom("registration_links")
    .select("nonce_hash")
    .where("nonce_hash", "=", sha256(registration.nonce))
    .executeTakeFirst();
  if (!row) throw invalidLink();
}

/**
 * Spends a link, in the transaction that creates its account: deletes its row
 * (400 when it was used or forgotten already: of two uses at once, one
 * passes) and every other link waiting for the same address.
 */
export async function spendRegistrationLink(
  trx: DB,
  secret: string,
  registration: PendingRegistration,
): Promise<void> {
  const spent = await trx
    .deleteFrom("registration_links")
    .where("nonce_hash", "=", sha256(registration.nonce))
    .executeTakeFirst();
  if (Number(spent.numDeletedRows) !== 1) throw invalidLink();
  await forgetRegistrationLinksTo(trx, registration.email, secret);
}

/** Forgets every link waiting for `email` (its account was created or erased). */
export async function forgetRegistrationLinksTo(
  db: DB,
  email: string,
  secret?: string,
): Promise<void> {
  await db
    .deleteFrom("registration_links")
    .where("email_hash", "=", registrationEmailHash(email, secret))
    .execute();
}

/** The registration a token carries; a 400 for one that is malformed, forged or expired. */
export function openRegistration(secret: string, token: string, now: Date): PendingRegistration {
  let registration: PendingRegistration;
  try {
    registration = sealedRegistration.parse(
      JSON.parse(open(token.trim(), ASSOCIATED, { secret, purpose: PURPOSE })),
    );
  } catch (error) {
    if (
      error instanceof CryptoBoxError ||
      error instanceof SyntaxError ||
      error instanceof z.ZodError
    ) {
      throw invalidLink();
    }
    throw error;
  }
  if (registration.expiresAt <= now.getTime())
    throw badRequest(REGISTRATION_LINK_EXPIRED, { token: [REGISTRATION_LINK_EXPIRED] });
  return registration;
}

/** The absolute link the mail carries. */
export function registrationLink(origin: string, token: string): string {
  return `${origin}/confirm-registration?token=${encodeURIComponent(token)}`;
}
