import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError, parseConfig } from "~/infra/config.server";
import { getDb, migrateToLatest, openDatabase, postgresPoolOf, type DB } from "~/infra/db.server";
import { poolerSignOf } from "~/infra/postgres-pooler.server";
import { migrationsFor } from "#db/migrations/index";
import { testPostgresDatabase } from "#tests/setup/test-postgres";

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "selfie-pool-"));
const opened: DB[] = [];
const open = (...args: Parameters<typeof openDatabase>) => {
  const db = openDatabase(...args);
  opened.push(db);
  return db;
};
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  for (const db of opened) await db.destroy();
});

// Fly Managed Postgres's pooled URL, as `fly mpg attach` sets it (nothing is reached: pg connects lazily).
const FLY_POOLED = "postgresql://fly-user:s3cret-password@pgbouncer.abc123xyz.flympg.net/fly-db";

describe("the PostgreSQL pool's connection lifetime (Fly's proxy cuts connections after 10 minutes)", () => {
  it("is 300 s by default, read from DATABASE_MAX_LIFETIME_SECONDS, and refused outside 10 s to a day", () => {
    expect(parseConfig({ DATA_DIR: tempDir() }).DATABASE_MAX_LIFETIME_SECONDS).toBe(300);
    expect(
      parseConfig({ DATA_DIR: tempDir(), DATABASE_MAX_LIFETIME_SECONDS: "120" })
        .DATABASE_MAX_LIFETIME_SECONDS,
    ).toBe(120);
    for (const bad of ["5", "90000", "1.5", "soon"])
      expect(() =>
        parseConfig({ DATA_DIR: tempDir(), DATABASE_MAX_LIFETIME_SECONDS: bad }),
      ).toThrow(/DATABASE_MAX_LIFETIME_SECONDS/);
  });

  it("is given to the pool: 300 s unless told otherwise", () => {
    expect(postgresPoolOf(open(FLY_POOLED))?.options.maxLifetimeSeconds).toBe(300);
    expect(
      postgresPoolOf(open({ url: FLY_POOLED, poolSize: 4, maxLifetimeSeconds: 120 }))?.options,
    ).toMatchObject({ max: 4, maxLifetimeSeconds: 120 });
  });
});

describe("a DATABASE_URL that looks pooled", () => {
  it("is recognised by the pooler's host, port or parameter, and a direct URL is not", () => {
    const pooled = [
      FLY_POOLED,
      "postgres://u:p@db.example.com:6432/app",
      "postgres://u:p@db.example.com:5432/app?pgbouncer=true",
      "postgresql://alex:pw@ep-cool-darkness-a1b2c3d4-pooler.us-east-2.aws.neon.tech/dbname?sslmode=require",
      "postgresql://postgres.ref:pw@aws-0-eu-central-1.pooler.supabase.com:6543/postgres",
    ];
    for (const url of pooled) expect(poolerSignOf(url), url).not.toBeNull();
    const direct = [
      "postgresql://fly-user:pw@direct.abc123xyz.flympg.net/fly-db",
      "postgresql://alex:pw@ep-cool-darkness-a1b2c3d4.us-east-2.aws.neon.tech/dbname",
      "postgres://postgres@127.0.0.1:5432/postgres",
      "not a url",
    ];
    for (const url of direct) expect(poolerSignOf(url), url).toBeNull();
  });

  it("refuses to migrate without DATABASE_DIRECT_URL, naming it, before any connection is made", async () => {
    const db = open(FLY_POOLED);
    const config = {
      DATABASE_URL: FLY_POOLED,
      DATABASE_DIRECT_URL: undefined,
      DATABASE_MAX_LIFETIME_SECONDS: 300,
    };
    const refusal = migrateToLatest(db, config);
    await expect(refusal).rejects.toBeInstanceOf(ConfigError);
    const message = await refusal.catch((error: Error) => error.message);
    expect(message).toContain(
      "DATABASE_URL: looks like a connection pooler (its host names PgBouncer)",
    );
    expect(message).toContain("Set DATABASE_DIRECT_URL to the database's direct URL");
    expect(message).not.toContain("s3cret-password");
    expect(postgresPoolOf(db)?.totalCount).toBe(0);
  });
});

const postgres = testPostgresDatabase(process.env.TEST_DATABASE_URL);

describe.skipIf(!postgres)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  afterAll(async () => {
    await postgres?.drop();
  });

  it("migrates over DATABASE_DIRECT_URL, never through the pooled URL", async () => {
    await postgres!.create();
    // A pooled-looking URL nobody answers: any connection through it would fail.
    const pooledUrl = "postgres://postgres@pgbouncer.invalid:6432/nowhere";
    const pooled = open(pooledUrl);
    const applied = await migrateToLatest(pooled, {
      DATABASE_URL: pooledUrl,
      DATABASE_DIRECT_URL: postgres!.url,
      DATABASE_MAX_LIFETIME_SECONDS: 300,
    });
    expect(applied).toEqual(Object.keys(migrationsFor("postgres")).sort());
    const direct = open(postgres!.url);
    const recorded = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(
      direct,
    );
    expect(recorded.rows[0].n).toBe(applied.length);
    expect(postgresPoolOf(pooled)?.totalCount).toBe(0);
  });

  it("replaces a connection once it has lived DATABASE_MAX_LIFETIME_SECONDS", async () => {
    expect(postgresPoolOf(getDb())?.options.maxLifetimeSeconds).toBe(300);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const pool = postgresPoolOf(open({ url: process.env.DATABASE_URL!, poolSize: 1 }))!;
    const client = await pool.connect();
    await client.query("select 1");
    vi.advanceTimersByTime(301_000);
    client.release();
    // Released after its lifetime, the connection is closed rather than kept idle for the next query.
    await vi.waitFor(() => expect(pool.totalCount).toBe(0));
    const fresh = await pool.connect();
    expect(fresh).not.toBe(client);
    fresh.release();
  });
});
