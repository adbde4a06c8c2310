import crypto from "node:crypto";
import { deriveKey } from "~/infra/keys.server";

/**
 * The links of a follow's mail. The confirmation link carries a random token
 * whose sha256 the follow row keeps. The unsubscribe link carries the
 * follow's id and an HMAC of it under a key derived from the app secret: every
 * later digest can name it without the row keeping anything secret, and it
 * stops working when the follow's row is gone (docs/decisions/096).
 */

function signatureOf(followId: string): string {
  return crypto
    .createHmac("sha256", deriveKey("follow-unsubscribe"))
    .update(followId)
    .digest("base64url");
}

/** The unsubscribe token of a follow: `<id>.<signature>`. */
export function unsubscribeToken(followId: string): string {
  return `${followId}.${signatureOf(followId)}`;
}

/** The follow a token names when its signature is right; null otherwise. */
export function followIdOfToken(token: string): string | null {
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return null;
  const id = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(signatureOf(id));
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  return id;
}

export function followConfirmLink(origin: string, token: string): string {
  return `${origin}/follows/confirm?token=${encodeURIComponent(token)}`;
}

/** The List-Unsubscribe address: a page with an Unfollow button, and the one-click POST's target. */
export function unsubscribeLink(origin: string, followId: string): string {
  return `${origin}/follows/unsubscribe?token=${encodeURIComponent(unsubscribeToken(followId))}`;
}

/** The headers every message of a follow carries (RFC 2369 and RFC 8058). */
export function listUnsubscribeHeaders(origin: string, followId: string) {
  return {
    "List-Unsubscribe": `<${unsubscribeLink(origin, followId)}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" as const,
  };
}
