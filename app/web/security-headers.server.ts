import crypto from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Config } from "~/infra/config.server";

/**
 * Security headers on every response. The CSP nonce is new for each request
 * and reaches the page through the load context (`res.locals.nonce`).
 */
export function securityHeaders(config: Config) {
  const dev = config.NODE_ENV === "development";
  const formActions = [
    "'self'",
    ...(config.STRIPE_SECRET_KEY ? ["https://checkout.stripe.com"] : []),
  ];
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    res.locals.nonce = nonce;
    res.setHeader(
      "Content-Security-Policy",
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self'",
        `connect-src 'self'${dev ? " ws://localhost:*" : ""}`,
        `form-action ${formActions.join(" ")}`,
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "object-src 'none'",
      ].join("; "),
    );
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Referrer-Policy", "same-origin");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    if (config.isProduction)
      res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}
