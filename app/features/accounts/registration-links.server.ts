import { z } from "zod";
import { badRequest } from "~/infra/errors.server";
import { CryptoBoxError, open, seal } from "~/infra/crypto-box.server";

/**
 * A registration waits in the link mailed to its address, not in the
 * database: the token is the registration (email, names, the password's
 * scrypt hash, an expiry) sealed with AES-256-GCM under a key of its own
 * (crypto-box.server.ts), so nobody but this server can read or change it.
 * Until the link's page is submitted no account exists, so registering tells
 * nothing about which emails have accounts: a taken email gets a notice
 * instead, and both answers are the same. Using the link creates the account;
 * a second use finds the email taken.
 */

export const REGISTRATION_LINK_HOURS = 24;
const REGISTRATION_LINK_MS = REGISTRATION_LINK_HOURS * 60 * 60 * 1000;
const PURPOSE = "registration-link";
const ASSOCIATED = "registration";

export const REGISTRATION_LINK_INVALID =
  "This link to create your account is not valid. Register again to get a new one.";
export const REGISTRATION_LINK_EXPIRED =
  "This link to create your account has expired. Register again to get a new one.";

const sealedRegistration = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  passwordHash: z.string(),
  expiresAt: z.number(),
});
export type PendingRegistration = z.infer<typeof sealedRegistration>;

export function sealRegistration(
  secret: string,
  registration: Omit<PendingRegistration, "expiresAt">,
  now: Date,
): string {
  const sealed: PendingRegistration = {
    ...registration,
    expiresAt: now.getTime() + REGISTRATION_LINK_MS,
  };
  return seal(JSON.stringify(sealed), ASSOCIATED, { secret, purpose: PURPOSE });
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
      throw badRequest(REGISTRATION_LINK_INVALID, { token: [REGISTRATION_LINK_INVALID] });
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
