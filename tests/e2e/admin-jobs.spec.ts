import path from "node:path";
import Database from "better-sqlite3";
import { expect, expectAccessible, signIn, tap, test } from "./fixtures";

/**
 * The admin's Jobs view, with JavaScript on and off: a failed job is retried
 * (queued again) and a job waiting too long is cancelled, each by a tap on
 * its button. The jobs are written straight into the e2e server's database,
 * of a kind no worker runs, so they stay where the test put them.
 */

const port = Number(process.env.E2E_PORT ?? 3100);
const databaseFile = path.resolve("tests/.tmp", `e2e-${port}`, "selfie-studio.sqlite");

function withDatabase<T>(work: (db: Database.Database) => T): T {
  const db = new Database(databaseFile);
  db.pragma("busy_timeout = 5000");
  try {
    return work(db);
  } finally {
    db.close();
  }
}

function insertJob(kind: string, status: "queued" | "failed", lastError: string | null) {
  const id = `e2e-job-${Math.random().toString(36).slice(2, 12)}`;
  const hourAgo = new Date(Date.now() - 60 * 60_000).toISOString();
  withDatabase((db) =>
    db
      .prepare(
        `insert into jobs (id, kind, payload, status, attempts, max_attempts, run_at, locked_until, locked_by,
           last_error, user_id, claimed_at, request_id, created_at, updated_at)
         values (?, ?, '{}', ?, ?, 3, ?, null, null, ?, null, null, 'e2e-request-0001', ?, ?)`,
      )
      .run(id, kind, status, status === "failed" ? 3 : 0, hourAgo, lastError, hourAgo, hourAgo),
  );
  return id;
}

const jobRow = (id: string) =>
  withDatabase(
    (db) =>
      db.prepare("select status, attempts, last_error from jobs where id = ?").get(id) as {
        status: string;
        attempts: number;
        last_error: string | null;
      },
  );

test("the admin retries a failed job and cancels a stuck one from the Jobs view", async ({
  page,
  javaScriptOn,
}, testInfo) => {
  const kind = `e2e-probe-${testInfo.project.name}`;
  const failed = insertJob(kind, "failed", "The provider refused the request");
  const stuck = insertJob(kind, "queued", null);

  await signIn(page, "admin", "/admin");
  await tap(page, page.getByTestId("admin-jobs-link"));
  await expect(page).toHaveURL(/\/admin\/jobs$/);
  await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: new RegExp(`^${kind}`) })).toBeVisible();

  const failedRow = page.locator(`[data-job-id="${failed}"]`);
  const stuckRow = page.locator(`[data-job-id="${stuck}"]`);
  await expect(failedRow).toContainText("Failed");
  await expect(failedRow).toContainText("The provider refused the request");
  await expect(failedRow).toContainText("3 of 3");
  await expect(stuckRow).toContainText("Stuck: waiting too long");
  await expectAccessible(page, javaScriptOn);

  await tap(page, failedRow.getByRole("button", { name: /^Retry/ }));
  await expect(page.getByText("Job queued again")).toBeVisible();
  await expect(failedRow).toHaveCount(0);
  expect(jobRow(failed)).toMatchObject({ status: "queued", attempts: 0 });

  await tap(page, stuckRow.getByRole("button", { name: /^Cancel/ }));
  await expect(page.getByText("Job cancelled")).toBeVisible();
  await expect(stuckRow).toHaveCount(0);
  expect(jobRow(stuck)).toMatchObject({ status: "failed", last_error: "Cancelled by the admin" });
  await expectAccessible(page, javaScriptOn);
});

test("a creator is refused the Jobs view", async ({ page }) => {
  await signIn(page, "creator");
  const response = await page.goto("/admin/jobs");
  expect(response?.status()).toBe(403);
});
