import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Config } from "~/infra/config.server";

/**
 * Security headers on every response. The CSP nonce is new for each request
 * and reaches the page through the load context (`res.locals.nonce`). The
 * headers are put together once; each response adds only its nonce. It reads
 * and writes only what Node's own response has (and `locals`, which it makes
 * when Express has not), so the cache-hit front runs it too.
 */
export function securityHeaders(config: Config) {
  const dev = config.NODE_ENV === "development";
  const formActions = [
    "'self'",
    ...(config.STRIPE_SECRET_KEY ? ["https://checkout.stripe.com"] : []),
  ];
  const [beforeNonce, afterNonce] = [
    "default-src 'self'",
    "script-src 'self' 'nonce-{nonce}'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws://localhost:*" : ""}`,
    `form-action ${formActions.join(" ")}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ]
    .join("; ")
    .split("{nonce}");
  const fixed: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["X-Frame-Options", "DENY"],
    ["Referrer-Policy", "same-origin"],
    ["Cross-Origin-Opener-Policy", "same-origin-allow-popups"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()"],
    ...(config.isProduction
      ? [["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as [string, string]]
      : []),
  ];
  return (_req: IncomingMessage, res: ServerResponse & WithLocals, next: () => void) => {
    const nonce = newNonce();
    (res.locals ??= Object.create(null) as Record<string, unknown>).nonce = nonce;
    res.setHeader("Content-Security-Policy", beforeNonce + nonce + afterNonce);
    for (const [name, value] of fixed) res.setHeader(name, value);
    next();
  };
}

/** A response with Express's `locals` (Express makes them; the cache-hit front too). */
export interface WithLocals {
  locals?: Record<string, unknown>;
}

/** The CSP nonce the security headers gave this response. */
export function nonceOf(res: WithLocals): string | undefined {
  return res.locals?.nonce as string | undefined;
}

/** Random bytes drawn a batch at a time (one system call for 256 nonces): 16 of them make a nonce. */
const NONCE_BYTES = 16;
const pool = Buffer.alloc(NONCE_BYTES * 256);
let drawn = pool.length;

/** A new CSP nonce: 16 bytes from the system's secure random source, in base64. */
function newNonce(): string {
  if (drawn === pool.length) {
    crypto.randomFillSync(pool);
    drawn = 0;
  }
  const nonce = pool.toString("base64", drawn, drawn + NONCE_BYTES);
  drawn += NONCE_BYTES;
  return nonce;
}
