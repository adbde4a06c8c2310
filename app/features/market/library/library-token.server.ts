import crypto from "node:crypto";
import { deriveKey } from "~/infra/keys.server";

/**
 * The buyer's library link: `/library?token=...`, valid for 24 hours. The
 * token is stateless: the normalized email and the expiry, with an HMAC over
 * both under a key derived from the app secret. Nothing is stored, so a link
 * cannot be revoked before it expires; it grants only what the buyer already
 * has (the paid orders of that email).
 */
export const LIBRARY_LINK_HOURS = 24;

const KEY_PURPOSE = "library-links";

/** How an email is compared: trimmed and lower-cased (orders store it lower-cased). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function mac(email: string, expiresMs: number, secret?: string): Buffer {
  return crypto
    .createHmac("sha256", deriveKey(KEY_PURPOSE, secret))
    .update(`${expiresMs}\n${email}`)
    .digest();
}

/** A token for this email, valid LIBRARY_LINK_HOURS from `now`. */
export function createLibraryToken(email: string, now: Date, secret?: string): string {
  const normalized = normalizeEmail(email);
  const expiresMs = now.getTime() + LIBRARY_LINK_HOURS * 60 * 60 * 1000;
  const payload = Buffer.from(`${expiresMs}\n${normalized}`, "utf8").toString("base64url");
  return `${payload}.${mac(normalized, expiresMs, secret).toString("base64url")}`;
}

/** The email a token was made for, or null when it is malformed, tampered with or expired. */
export function verifyLibraryToken(
  token: string,
  now: Date,
  secret?: string,
): { email: string; expiresAt: Date } | null {
  if (typeof token !== "string" || token.length > 1000) return null;
  const parts = token.split(".");
  if (
    parts.length !== 2 ||
    !/^[A-Za-z0-9_-]+$/.test(parts[0]) ||
    !/^[A-Za-z0-9_-]+$/.test(parts[1])
  )
    return null;
  const decoded = Buffer.from(parts[0], "base64url").toString("utf8");
  const newline = decoded.indexOf("\n");
  if (newline < 1) return null;
  const expiresText = decoded.slice(0, newline);
  const email = decoded.slice(newline + 1);
  if (!/^\d{1,16}$/.test(expiresText) || email.length === 0 || email !== normalizeEmail(email))
    return null;
  const expiresMs = Number(expiresText);
  const expected = mac(email, expiresMs, secret);
  const given = Buffer.from(parts[1], "base64url");
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  if (expiresMs <= now.getTime()) return null;
  return { email, expiresAt: new Date(expiresMs) };
}

/** The absolute library link for this email under `origin`. */
export function libraryUrl(origin: string, email: string, now: Date): string {
  return `${origin}/library?token=${encodeURIComponent(createLibraryToken(email, now))}`;
}
