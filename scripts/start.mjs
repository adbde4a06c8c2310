#!/usr/bin/env node
// The production entry: migrate, make sure the super admin exists, then serve.
// `--seed` also creates the demo data (what `npm start` does for local use).
// The container runs exactly this file.
import crypto from "node:crypto";
import path from "node:path";
import url from "node:url";
import express from "express";
import compression from "compression";
import { createRequestHandler } from "@remix-run/express";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
const buildPath = path.join(root, "build", "index.js");

let build;
try {
  build = await import(url.pathToFileURL(buildPath).href);
} catch (error) {
  console.error(`Could not load the server build at ${buildPath}. Run \`npm run build\` first.\n`, error);
  process.exit(1);
}

const { boot } = build.entry.module;
let config;
try {
  ({ config } = await boot({ seedDemo: process.argv.includes("--seed") }));
} catch (error) {
  if (error && error.name === "ConfigError") {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", config.TRUST_PROXY);

// Security headers on every response; the CSP nonce is new for each request.
app.use((req, res, next) => {
  const nonce = crypto.randomBytes(16).toString("base64");
  res.locals.nonce = nonce;
  const dev = config.NODE_ENV === "development";
  const formActions = ["'self'", ...(config.STRIPE_SECRET_KEY ? ["https://checkout.stripe.com"] : [])];
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
  if (config.isProduction) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  next();
});

app.use(compression());
// Fingerprinted client assets can be cached forever; everything else briefly.
app.use("/build", express.static(path.join(root, "public", "build"), { immutable: true, maxAge: "1y" }));
app.use(express.static(path.join(root, "public"), { maxAge: "1h" }));

app.all(
  "*",
  createRequestHandler({
    build,
    mode: config.NODE_ENV,
    getLoadContext: (req, res) => ({ nonce: res.locals.nonce, clientIp: req.ip ?? "unknown" }),
  }),
);

const server = app.listen(config.PORT, () => {
  console.log(`Selfie Studio is serving http://localhost:${config.PORT}`);
  if (process.env.REMIX_DEV_ORIGIN) {
    import("@remix-run/node").then(({ broadcastDevReady }) => broadcastDevReady(build));
  }
});

// On stop: no new requests, running jobs handed back to the queue, the database closed.
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    setTimeout(() => process.exit(0), 10_000).unref();
    server.close(() => {
      build.entry.module
        .shutdown()
        .catch((error) => console.error("Shutdown:", error))
        .finally(() => process.exit(0));
    });
  });
}
