import crypto from "node:crypto";

/** An opaque random id (128 bits, url-safe). */
export function newId(): string {
  return crypto.randomBytes(16).toString("base64url");
}

/** A bearer secret (256 bits, url-safe). Only its hash is ever stored. */
export function newSecretToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

export function sha256(value: string): string {
  return crypto.createHash("sha256").update(value).digest("hex");
}
