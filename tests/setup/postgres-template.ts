import type { TestProject } from "vitest/node";
import { migrateToLatest, openDatabase } from "~/infra/db.server";
import { DEFAULT_DATABASE_MAX_LIFETIME_SECONDS } from "~/infra/config.server";
import { testPostgresDatabase } from "./test-postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL database migrated to the latest schema, which each test file's database is copied from. */
    postgresTemplate: string | undefined;
  }
}

/**
 * Global setup of the PostgreSQL pass: migrates one database once, so each
 * test file's database is a copy of it (`create database … template …`)
 * instead of running every migration again. The test files still run
 * migrateToLatest, which finds nothing to do; the migration suites build
 * their own databases from empty.
 */
export default async function setup(project: TestProject) {
  const template = testPostgresDatabase(process.env.TEST_DATABASE_URL);
  project.provide("postgresTemplate", template?.name);
  if (!template) return;
  await template.create();
  const db = openDatabase({ url: template.url, poolSize: 1 });
  try {
    await migrateToLatest(db, {
      DATABASE_URL: undefined,
      DATABASE_DIRECT_URL: undefined,
      DATABASE_MAX_LIFETIME_SECONDS: DEFAULT_DATABASE_MAX_LIFETIME_SECONDS,
    });
  } finally {
    await db.destroy();
  }
  return () => template.drop();
}
