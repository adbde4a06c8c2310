#!/usr/bin/env node
// The production entry: migrate, make sure the super admin exists, then serve.
// ROLE (all, web or worker) says whether this process also runs the jobs and the
// periodic work (boot) and whether it serves pages or only its health checks (the HTTP app).
// `--seed` also creates the demo data and turns DEMO_FIGURES on unless set (what `npm start` does for local use).
// The container runs exactly this file.
import http from "node:http";
import path from "node:path";
import url from "node:url";

// `--role=web` (or worker, all) stands for ROLE, for platforms that give each process group its own command (fly.toml).
const roleArgument = process.argv.find((arg) => arg.startsWith("--role="));
if (roleArgument) process.env.ROLE = roleArgument.slice("--role=".length);

// The demo (`npm start`, the browser tests' server) shows the spec's cosmetic figures, labelled;
// a live store never passes --seed (the Dockerfile and fly.toml), so DEMO_FIGURES stays off there.
const seedDemo = process.argv.includes("--seed");
if (seedDemo && !process.env.DEMO_FIGURES) process.env.DEMO_FIGURES = "on";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
const buildPath = path.join(root, "build", "index.js");

let build;
try {
  build = await import(url.pathToFileURL(buildPath).href);
} catch (error) {
  console.error(
    `Could not load the server build at ${buildPath}. Run \`npm run build\` first.\n`,
    error,
  );
  process.exit(1);
}

const { boot, isDatabaseUnavailable, databaseUnavailableLine, routeConsoleThroughLogger } =
  build.entry.module;

// LOG_FORMAT=json (the default in production): every console line from here on is one JSON
// object with the time, level and the request id of the request (or job) it was written for.
routeConsoleThroughLogger();

// Background work (the job worker, sweeps) that fails because the database is
// unreachable must not end the process: the pool reconnects when the database
// returns. Any other unhandled rejection still ends it, as Node would.
process.on("unhandledRejection", (reason) => {
  if (isDatabaseUnavailable(reason)) {
    console.warn(`Background work stopped: ${databaseUnavailableLine(reason)}`);
    return;
  }
  throw reason;
});

let config;
try {
  ({ config } = await boot({ seedDemo }));
} catch (error) {
  // A configuration mistake or a database that cannot be reached: one clear line, no stack.
  // Written as plain text whatever LOG_FORMAT says: the operator reads it at the terminal.
  if (error && (error.name === "ConfigError" || error.name === "StartupError")) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

// The HTTP front (security headers, client address, body limits, static files, Remix)
// lives in app/web/http-app.server.ts, inside the build (app/boot/site-app.server.ts adds the view counts of cached pages).
const app = build.entry.module.createSiteApp({
  config,
  build,
  publicDir: path.join(root, "public"),
});

const server = http.createServer(app).listen(config.PORT, () => {
  console.log(
    config.ROLE === "worker"
      ? `Selfie Studio worker: /healthz and /readyz on http://localhost:${config.PORT}`
      : `Selfie Studio is serving http://localhost:${config.PORT}`,
  );
  if (process.env.REMIX_DEV_ORIGIN) {
    import("@remix-run/node").then(({ broadcastDevReady }) => broadcastDevReady(build));
  }
});
build.entry.module.applyServerTimeouts(server);

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
