import crypto from "node:crypto";
import { deriveKey } from "~/infra/keys.server";

/**
 * What the rate limits and the sign-in throttle store for a key they count
 * (a client address, an email): an HMAC-SHA256 under a key derived from the
 * app secret for this purpose alone. A plain SHA-256 of an IPv4 address is
 * undone by hashing all 2^32 of them; without the secret nobody can.
 */
export function countedKeyHash(key: string, secret?: string): string {
  return crypto.createHmac("sha256", deriveKey("counted-keys", secret)).update(key).digest("hex");
}
