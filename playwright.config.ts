import fs from "node:fs";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = path.resolve("tests/.tmp", `e2e-${port}`);
const chromium =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((p) =>
    fs.existsSync(p),
  );

export const E2E_ADMIN = { email: "admin@e2e.test", password: "admin-e2e-password" };
/** The SFTP server standing in for Adobe Stock's contributor server (tests/setup/sftp-server-cli.ts); uploads land in its root. */
export const E2E_SFTP = {
  port: port + 631,
  root: path.resolve("tests/.tmp", `e2e-sftp-${port}`),
  username: "208400001",
  password: "e2e-sftp-generated-password",
};

const launchOptions = {
  executablePath: chromium,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  outputDir: `test-results/e2e-${port}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    launchOptions,
  },
  projects: [
    // Journeys in the browser, with JavaScript on and off.
    {
      name: "js",
      testDir: "tests/e2e",
      use: { ...devices["Desktop Chrome"], launchOptions, javaScriptEnabled: true },
    },
    {
      name: "no-js",
      testDir: "tests/e2e",
      use: { ...devices["Desktop Chrome"], launchOptions, javaScriptEnabled: false },
    },
    // Whole server processes started, killed and restarted by the tests themselves (no browser).
    { name: "process", testDir: "tests/process", timeout: 180_000 },
  ],
  webServer: [
    {
      command: `rm -rf "${E2E_SFTP.root}" && node --import tsx tests/setup/sftp-server-cli.ts --port ${E2E_SFTP.port} --user ${E2E_SFTP.username}:${E2E_SFTP.password} --root "${E2E_SFTP.root}"`,
      port: E2E_SFTP.port,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "pipe",
    },
    {
      // A fresh data directory for every run: migrations, super admin and demo data from scratch,
      // through the same start script the container runs.
      command: `rm -rf "${dataDir}" && node scripts/start.mjs --seed`,
      url: `http://localhost:${port}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        NODE_ENV: "production",
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        REGISTRATION: "closed",
        FAL_KEY: "",
        STRIPE_SECRET_KEY: "",
        // A production server needs PUBLIC_URL, and without Stripe runs the test checkout only when told to.
        PUBLIC_URL: `http://localhost:${port}`,
        ALLOW_TEST_CHECKOUT: "true",
        // Tax at checkout: only buyers who choose a country of the EU or the UK are charged VAT
        // (checkout-tax.spec.ts); every other spec's buyer gives no country and pays the price.
        TAX: "on",
        // One proxy in front: a request's X-Forwarded-For names its client (the analytics test's visitor has an
        // address of its own); without the header the client is the socket's peer, as before.
        TRUST_PROXY: "1",
        ADOBE_STOCK_SFTP_HOST: "127.0.0.1",
        ADOBE_STOCK_SFTP_PORT: String(E2E_SFTP.port),
      },
    },
  ],
});
