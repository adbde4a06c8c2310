import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb, openDatabase } from "~/infra/db.server";
import { engineOf } from "~/infra/sql-dialect.server";
import { backupDataDir, restoreDataDir, DATABASE_FILE } from "~/infra/backup.server";
import * as testCheckoutRoute from "~/routes/_market+/test-checkout.$sessionId";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { apiRoute } from "#tests/setup/api-routes";
import { storedDatabaseBytes } from "#tests/setup/db-tables";
import { newListingCheckout } from "#tests/setup/stripe";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";

const paymentStatusRoute = apiRoute("/api/payment-status/{sessionId}");

/**
 * Someone who gets a copy of the database (a stolen backup, a file left
 * readable) must not be able to turn it into buyers' downloads: the checkout
 * session id that the public payment-status API answers downloads for is kept
 * only as a hash, and the database, its WAL and shared-memory side files and
 * backups are readable by their owner only.
 */

async function paidTestOrder(): Promise<string> {
  const sessionId = await newListingCheckout({ name: "Copy Buyer", email: "copy@example.com" });
  const paid = await callRoute(
    testCheckoutRoute.action,
    formRequest(`/test-checkout/${sessionId}`, { intent: "pay" }),
    { sessionId },
  );
  expect(paid.status).toBe(302);
  return sessionId;
}

async function statusOf(sessionId: string) {
  return callRoute(
    paymentStatusRoute.loader,
    makeRequest(`/api/payment-status/${encodeURIComponent(sessionId)}`),
    { sessionId },
  );
}

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe("a copy of the database", () => {
  it("holds no checkout session id, and none of its values answers a payment status with downloads", async () => {
    const sessionId = await paidTestOrder();
    const working = await statusOf(sessionId);
    expect(working.status).toBe(200);
    expect(((await working.json()) as { downloads: unknown[] }).downloads).toHaveLength(1);

    const bytes = await storedDatabaseBytes();
    expect(bytes.includes(Buffer.from(sessionId)), "the session id is stored in plain text").toBe(
      false,
    );

    // Every text the order's rows hold, tried as a session id: none works.
    const order = await rowWhere("orders", "*", "customer_email", "copy@example.com");
    const rows = [
      order,
      ...(await rowsWhere("order_items", "order_id", order.id)),
      ...(await rowsWhere("download_grants", "order_id", order.id)),
    ];
    const values = new Set(
      rows.flatMap((row) =>
        Object.values(row).filter(
          (value): value is string => typeof value === "string" && value.length > 0,
        ),
      ),
    );
    expect(values.size).toBeGreaterThan(5);
    for (const value of values) {
      const answer = await statusOf(value);
      expect(answer.status, `payment status for ${value}`).toBe(404);
    }
  });

  // File modes of SQLite's files and of a backup of them; PostgreSQL's files belong to its server, which sets their modes.
  it.skipIf(engineOf(getDb()) === "postgres")(
    "the SQLite database, its WAL and shared-memory files and a backup are readable by their owner only (not run on PostgreSQL: its files are the server's)",
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-modes-"));
      const previous = process.umask(0o022);
      try {
        const file = path.join(dir, DATABASE_FILE);
        const db = openDatabase(file);
        await db.schema.createTable("notes").addColumn("body", "text").execute();
        await db
          .insertInto("notes" as never)
          .values({ body: "kept" } as never)
          .execute();
        for (const suffix of ["", "-wal", "-shm"]) {
          expect(fs.existsSync(file + suffix), `${DATABASE_FILE}${suffix} exists`).toBe(true);
          expect(modeOf(file + suffix).toString(8), `${DATABASE_FILE}${suffix}`).toBe("600");
        }
        await db.destroy();

        // A database made world-readable before (an older version made it so) is closed to others when opened.
        fs.chmodSync(file, 0o644);
        const reopened = openDatabase(file);
        await reopened
          .selectFrom("notes" as never)
          .selectAll()
          .execute();
        expect(modeOf(file).toString(8)).toBe("600");
        await reopened.destroy();

        const backup = path.join(dir, "backup");
        await backupDataDir(getConfig().dataDir, backup);
        expect(modeOf(backup).toString(8), "the backup folder").toBe("700");
        expect(modeOf(path.join(backup, DATABASE_FILE)).toString(8), "the backup's database").toBe(
          "600",
        );
        expect(modeOf(path.join(backup, "app-secret")).toString(8), "the backup's app secret").toBe(
          "600",
        );

        const restored = path.join(dir, "restored");
        await restoreDataDir(backup, restored);
        expect(
          modeOf(path.join(restored, DATABASE_FILE)).toString(8),
          "the restored database",
        ).toBe("600");
        const check = new SQLite(path.join(restored, DATABASE_FILE), { readonly: true });
        check.close();
      } finally {
        process.umask(previous);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
