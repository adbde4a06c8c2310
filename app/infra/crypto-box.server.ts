import crypto from "node:crypto";
import { deriveKey } from "~/infra/keys.server";

/**
 * Secrets at rest (platform API keys, OAuth access tokens): AES-256-GCM with a
 * key derived from the app secret for this purpose only. A sealed value is
 * "v1.<iv>.<tag>.<ciphertext>" (base64url). The associated data binds a value
 * to where it belongs (e.g. the user and platform), so a sealed value copied
 * into another row does not open there.
 */
const VERSION = "v1";
const IV_BYTES = 12;

export class CryptoBoxError extends Error {
  constructor(message = "The stored secret could not be opened") {
    super(message);
    this.name = "CryptoBoxError";
  }
}

/** Whose key: integration credentials unless a caller names another purpose (each purpose has its own key). */
interface BoxOptions {
  secret?: string;
  purpose?: string;
}

function key(options: BoxOptions): Buffer {
  return deriveKey(options.purpose ?? "integration-credentials", options.secret);
}

export function seal(plaintext: string, associatedData: string, options: BoxOptions = {}): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", key(options), iv);
  cipher.setAAD(Buffer.from(associatedData, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [
    VERSION,
    iv.toString("base64url"),
    tag.toString("base64url"),
    ciphertext.toString("base64url"),
  ].join(".");
}

export function open(sealed: string, associatedData: string, options: BoxOptions = {}): string {
  const parts = sealed.split(".");
  if (parts.length !== 4 || parts[0] !== VERSION) throw new CryptoBoxError("Unknown sealed format");
  const [, ivText, tagText, bodyText] = parts;
  const iv = Buffer.from(ivText, "base64url");
  const tag = Buffer.from(tagText, "base64url");
  if (iv.length !== IV_BYTES || tag.length !== 16)
    throw new CryptoBoxError("Unknown sealed format");
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key(options), iv);
    decipher.setAAD(Buffer.from(associatedData, "utf8"));
    decipher.setAuthTag(tag);
    return Buffer.concat([
      decipher.update(Buffer.from(bodyText, "base64url")),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    throw new CryptoBoxError();
  }
}
