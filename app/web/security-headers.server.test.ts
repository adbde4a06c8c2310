import type { NextFunction, Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { securityHeaders } from "./security-headers.server";

/** The headers and nonce the middleware gives one response. */
function headersOfOneResponse(middleware: ReturnType<typeof securityHeaders>) {
  const headers = new Map<string, string>();
  const res = {
    locals: {} as Record<string, unknown>,
    setHeader: (name: string, value: string) => headers.set(name, value),
  };
  let passedOn = false;
  middleware({} as Request, res as unknown as Response, (() => (passedOn = true)) as NextFunction);
  expect(passedOn).toBe(true);
  return { headers, nonce: res.locals.nonce as string };
}

describe("security headers", () => {
  it("gives every response a nonce of its own, 16 random bytes, named in its CSP", () => {
    const middleware = securityHeaders({ ...getConfig(), NODE_ENV: "production" });
    const nonces = new Set<string>();
    // More responses than one batch of random bytes holds (256 nonces), so a refill is crossed.
    for (let i = 0; i < 600; i++) {
      const { headers, nonce } = headersOfOneResponse(middleware);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      expect(headers.get("Content-Security-Policy")).toContain(
        `script-src 'self' 'nonce-${nonce}'; style-src`,
      );
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(600);
  });

  it("writes the whole policy and the fixed headers, Stripe's checkout among the form targets when it is configured", () => {
    const { headers, nonce } = headersOfOneResponse(
      securityHeaders({ ...getConfig(), NODE_ENV: "production", STRIPE_SECRET_KEY: "sk_test_x" }),
    );
    expect(headers.get("Content-Security-Policy")).toBe(
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self'",
        "connect-src 'self'",
        "form-action 'self' https://checkout.stripe.com",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "object-src 'none'",
      ].join("; "),
    );
    expect(headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(headers.get("X-Frame-Options")).toBe("DENY");
    expect(headers.get("Referrer-Policy")).toBe("same-origin");
  });
});
