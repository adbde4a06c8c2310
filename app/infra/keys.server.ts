import crypto from "node:crypto";
import { getConfig } from "~/infra/config.server";

/**
 * One app secret, many keys: each purpose (signed URLs, encryption at rest,
 * ...) gets its own key derived with HKDF, so no key serves two purposes.
 */
const cache = new Map<string, Buffer>();

export function deriveKey(purpose: string, secret = getConfig().appSecret): Buffer {
  const id = `${secret}\u0000${purpose}`;
  let key = cache.get(id);
  if (!key) {
    key = Buffer.from(crypto.hkdfSync("sha256", secret, "selfie-studio", purpose, 32));
    cache.set(id, key);
  }
  return key;
}
