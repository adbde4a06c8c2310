import crypto from "node:crypto";

/**
 * Shopify's webhook signature: `X-Shopify-Hmac-Sha256` is the base64
 * HMAC-SHA256 of the raw request body under the app's client secret. The
 * check runs over the bytes exactly as received (never a re-serialised JSON)
 * and compares in constant time.
 */

export function shopifyWebhookHmac(rawBody: Buffer | string, clientSecret: string): string {
  return crypto.createHmac("sha256", clientSecret).update(rawBody).digest("base64");
}

export function verifyShopifyWebhook(
  rawBody: Buffer,
  hmacHeader: string | null | undefined,
  clientSecret: string,
): boolean {
  if (!hmacHeader || hmacHeader.length > 200) return false;
  const given = Buffer.from(hmacHeader.trim(), "base64");
  const expected = crypto.createHmac("sha256", clientSecret).update(rawBody).digest();
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
