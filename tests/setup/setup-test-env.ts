import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, inject, vi } from "vitest";
import { testPostgresDatabase } from "./test-postgres";

// Each test file gets its own data directory, database and files.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-test-"));
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "test";
process.env.ADMIN_EMAIL = "admin@example.com";
process.env.ADMIN_PASSWORD = "admin-password";
process.env.REGISTRATION = "closed";
for (const name of [
  "APP_SECRET",
  "FAL_KEY",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "SHOPIFY_CLIENT_ID",
  "SHOPIFY_CLIENT_SECRET",
  "PUBLIC_URL",
]) {
  delete process.env[name];
}

// With TEST_DATABASE_URL (a PostgreSQL server), the file runs on a fresh
// PostgreSQL database of its own instead of an SQLite file, dropped at the end:
// a copy of the database the global setup migrated (tests/setup/postgres-template.ts).
const postgres = testPostgresDatabase(process.env.TEST_DATABASE_URL, inject("postgresTemplate"));
if (postgres) process.env.DATABASE_URL = postgres.url;
else delete process.env.DATABASE_URL;
delete process.env.DATABASE_DIRECT_URL;

beforeAll(async () => {
  if (postgres) await postgres.create();
  const { getDb, migrateToLatest } = await import("~/infra/db.server");
  await migrateToLatest(getDb());
});

afterAll(async () => {
  const { getDb } = await import("~/infra/db.server");
  await getDb().destroy();
  (globalThis as { __selfieStudioDb?: unknown }).__selfieStudioDb = undefined;
  if (postgres) await postgres.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// An unexpected console.error fails the test that caused it.
let consoleErrors: unknown[][] = [];
const originalError = console.error;
console.error = (...args: unknown[]) => {
  consoleErrors.push(args);
  originalError(...args);
};
afterEach(() => {
  const errors = consoleErrors;
  consoleErrors = [];
  vi.restoreAllMocks();
  if (errors.length > 0) {
    throw new Error(
      `console.error was called:\n${errors.map((args) => args.map(String).join(" ")).join("\n")}`,
    );
  }
});

export { dataDir };
