import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { DEMO_CREATOR } from "../../db/demo-account";
import { eventually, signInCreator } from "./support/creator-session";
import { ROOT, startServer } from "./support/server-process";

/**
 * Erasure under load, on one real server process (JOB_CONCURRENCY=1): the
 * seeded demo creator is erased while one of their styles is running, one of
 * their listings sits in a buyer's unpaid checkout and a payout transfer of
 * an earlier sale is queued behind the style. Afterwards no file of theirs is
 * left in the served files but the one a buyer paid for, the database holds
 * neither their email nor their name, the buyer's earlier download still
 * works (its file the one place their data stays, with the records the law keeps: the
 * order, the payout's movements), no byte of the data directory nor line of the log names
 * them, the unpaid checkout is refused with a clear message when paid, the
 * money owed was transferred, and nothing answered a 5xx.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100) + 73;
const scratch = path.join(ROOT, "tests", ".tmp", `process-erasure-${PORT}`);

test("erasing a creator mid-work leaves nothing of theirs but what buyers bought", async () => {
  fs.rmSync(scratch, { recursive: true, force: true });
  const dataDir = path.join(scratch, "data");
  const server = await startServer({
    dataDir,
    port: PORT,
    seed: true,
    env: { JOB_CONCURRENCY: "1", JOB_LEASE_SECONDS: "5" },
  });
  const answered: Array<{ url: string; status: number }> = [];
  const call = async (pathname: string, init: RequestInit = {}) => {
    const response = await server.fetch(pathname, init);
    answered.push({ url: pathname, status: response.status });
    return response;
  };
  try {
    const creatorId = server.query<{ id: string }>(
      "select id from users where email = ?",
      DEMO_CREATOR.email,
    )[0]!.id;
    // The creator has an active payout account at the built-in test provider (what its onboarding leaves).
    const writable = new SQLite(path.join(dataDir, "selfie-studio.sqlite"));
    try {
      const stamp = new Date().toISOString();
      writable
        .prepare(
          "insert into test_payout_accounts (id, email, onboarded_at, created_at) values (?, ?, ?, ?)",
        )
        .run("tacct_erasure", DEMO_CREATOR.email, stamp, stamp);
      writable
        .prepare(
          `insert into payout_accounts (user_id, provider, account_id, status, payouts_enabled, transfers_enabled, details_submitted, created_at, updated_at)
           values (?, 'test', 'tacct_erasure', 'active', 1, 1, 1, ?, ?)`,
        )
        .run(creatorId, stamp, stamp);
    } finally {
      writable.close();
    }

    const market = (await (await call("/api/marketplace?limit=100")).json()) as {
      items: Array<{ id: string }>;
    };
    expect(market.items.length).toBeGreaterThanOrEqual(2);
    const [boughtListing, openListing] = market.items;

    // A style is running (the only worker slot), with more queued behind it.
    const creator = await signInCreator(server);
    const upload = await creator.uploadImage("portrait.png");
    for (const style of ["anime", "cartoon", "fantasy"]) await creator.stylize(upload.id, style);
    await eventually("a style running", () =>
      server.query("select id from jobs where kind = 'stylize-image' and status = 'running'")
        .length > 0
        ? true
        : undefined,
    );

    // A buyer buys one listing (its transfer is queued behind the style) and leaves a checkout of another unpaid.
    const checkout = async (listingId: string, email: string) => {
      const created = await call("/api/create-checkout-session", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          cartItems: [{ imageId: listingId, licenseType: "standard" }],
          customerInfo: { name: "Bea Buyer", email },
        }),
      });
      expect(created.status, await created.clone().text()).toBe(200);
      return ((await created.json()) as { sessionId: string }).sessionId;
    };
    const pay = (sessionId: string) =>
      call(`/test-checkout/${encodeURIComponent(sessionId)}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "intent=pay",
        redirect: "manual",
      });
    const paidSession = await checkout(boughtListing!.id, "bea@process.test");
    expect((await pay(paidSession)).status).toBe(302);
    const status = async (sessionId: string) =>
      (await (await call(`/api/payment-status/${encodeURIComponent(sessionId)}`)).json()) as {
        paymentStatus: string;
        error: string | null;
        downloads: Array<{ downloadUrl: string }>;
      };
    const bought = await status(paidSession);
    expect(bought.paymentStatus).toBe("completed");
    const downloadPath = new URL(bought.downloads[0]!.downloadUrl).pathname;
    expect((await call(downloadPath)).status).toBe(200);
    const openSession = await checkout(openListing!.id, "late@process.test");

    const queuedTransfers = server.query(
      "select id from jobs where kind = 'payouts.transfer' and status = 'queued'",
    );
    const runningStyles = server.query(
      "select id from jobs where kind = 'stylize-image' and status = 'running'",
    );
    expect(queuedTransfers.length, "a transfer waits behind the style").toBeGreaterThan(0);
    expect(runningStyles.length, "a style is still running").toBeGreaterThan(0);

    // Every file of the creator's so far, and the one a buyer paid for.
    const creatorKeys = server
      .query<{ key: string }>(
        `select file_key as key from images where user_id = @id
         union select file_key from stylized_images where user_id = @id and file_key is not null
         union select optimized_file_key from stylized_images where user_id = @id and optimized_file_key is not null
         union select file_key from listings where user_id = @id
         union select preview_key from listings where user_id = @id`,
        { id: creatorId },
      )
      .map((row) => row.key);
    const boughtKeys = server
      .query<{ key: string }>(
        "select i.file_key as key from order_items i join orders o on o.id = i.order_id where i.creator_id = ? and o.status = 'paid'",
        creatorId,
      )
      .map((row) => row.key);
    expect(boughtKeys).toHaveLength(1);

    const erased = await creator.call("/api/account", {
      method: "DELETE",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ password: DEMO_CREATOR.password }),
    });
    answered.push({ url: "DELETE /api/account", status: erased.status });
    expect(erased.status, await erased.clone().text()).toBe(202);
    // At once: the token is dead and the listings are off the marketplace.
    const after = await creator.call("/api/token-user");
    expect(after.status).toBe(401);
    const marketAfter = (await (await call("/api/marketplace?limit=100")).json()) as {
      items: Array<{ id: string }>;
    };
    expect(marketAfter.items.map((item) => item.id)).not.toContain(boughtListing!.id);
    expect(marketAfter.items.map((item) => item.id)).not.toContain(openListing!.id);

    // The erasure's job has run, and the worker is idle.
    await eventually(
      "the erasure done and the queue idle",
      () =>
        server.query("select id from jobs where kind = 'accounts.erase' and status = 'done'")
          .length === 1 &&
        server.query("select id from jobs where status in ('queued', 'running')").length === 0
          ? true
          : undefined,
      120_000,
      250,
    );
    // The style that was running stored nothing; the queued ones were called off.
    expect(server.query("select status from stylized_images where user_id = ?", creatorId)).toEqual(
      [],
    );

    // The money owed went out first.
    expect(
      server.query<{ kind: string }>(
        "select kind from test_payout_movements where account_id = 'tacct_erasure'",
      ),
    ).toEqual([{ kind: "transfer" }]);
    expect(
      server.query("select user_id from payout_accounts where user_id = ?", creatorId),
    ).toEqual([]);

    // No file of the creator's is left in the served files but the bought one (removed ones wait in .deleted/ for the backup window).
    const filesDir = path.join(dataDir, "files");
    const left = creatorKeys.filter((key) => fs.existsSync(path.join(filesDir, key)));
    expect(left).toEqual(boughtKeys);
    const consistency = server.inspect();
    const served = consistency.unreferencedFiles.filter((key) => !key.startsWith(".deleted/"));
    expect(served, "no served file without its row (the running style stored nothing)").toEqual([]);
    // The only keys named without a file are the erased creator's in orders nobody paid for (the checkout left open).
    const unpaidKeys = new Set(
      server
        .query<{ key: string }>(
          "select i.file_key as key from order_items i join orders o on o.id = i.order_id where i.creator_id = ? and o.status not in ('paid', 'disputed')",
          creatorId,
        )
        .map((row) => row.key),
    );
    expect(consistency.missingFiles.filter((key) => !unpaidKeys.has(key))).toEqual([]);

    // Neither the email nor the name in any text column of any table.
    const tables = server.query<{ name: string }>(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'listing_search_%'",
    );
    const found: string[] = [];
    for (const { name } of tables) {
      for (const row of server.query<Record<string, unknown>>(`select * from "${name}"`)) {
        for (const [column, value] of Object.entries(row)) {
          if (typeof value !== "string") continue;
          for (const needle of [
            DEMO_CREATOR.email,
            DEMO_CREATOR.firstName,
            `${DEMO_CREATOR.firstName} ${DEMO_CREATOR.lastName}`,
          ]) {
            if (value.toLowerCase().includes(needle.toLowerCase())) found.push(`${name}.${column}`);
          }
        }
      }
    }
    expect(found).toEqual([]);

    // Nor in any byte of the data directory: the database file (secure_delete zeroes deleted
    // rows) and its write-ahead log (emptied by the erasure), the outbox, every stored file. Left
    // alone: the file a buyer paid for, and removed files waiting out the backup window in
    // files/.deleted/ (purged after 15 minutes, docs/decisions/086).
    const needles = [DEMO_CREATOR.email, `${DEMO_CREATOR.firstName} ${DEMO_CREATOR.lastName}`].map(
      (needle) => Buffer.from(needle),
    );
    const kept = new Set(boughtKeys.map((key) => path.join(filesDir, key)));
    const inBytes: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (full !== path.join(filesDir, ".deleted")) walk(full);
        } else if (entry.isFile() && !kept.has(full)) {
          const bytes = fs.readFileSync(full);
          for (const needle of needles)
            if (bytes.includes(needle)) inBytes.push(`${path.relative(dataDir, full)}: ${needle}`);
        }
      }
    };
    walk(dataDir);
    expect(inBytes).toEqual([]);
    // And in the server's log, nothing but the seed's line announcing the demo account.
    const logged = server
      .output()
      .split("\n")
      .filter((line) => !line.includes("Demo creator created:"))
      .filter((line) => needles.some((needle) => line.includes(needle.toString())));
    expect(logged).toEqual([]);

    // The buyer's earlier download still works.
    const again = await call(downloadPath);
    expect(again.status).toBe(200);
    expect((await again.arrayBuffer()).byteLength).toBeGreaterThan(0);

    // The unpaid checkout, paid now, is refunded at once with a message that says why.
    await pay(openSession);
    const refused = await status(openSession);
    expect(refused).toMatchObject({ paymentStatus: "refunded", downloads: [] });
    expect(refused.error).toMatch(/closed their account/);

    // The email can register a new account.
    const admin = await call("/api/token-login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "admin@process.test", password: "process-admin-pass" }),
    });
    const { token } = (await admin.json()) as { token: string };
    const recreated = await call("/api/admin/users", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        email: DEMO_CREATOR.email,
        password: "a-new-long-password",
        firstName: "New",
        lastName: "Person",
      }),
    });
    expect(recreated.status, await recreated.clone().text()).toBe(201);

    expect(answered.filter((answer) => answer.status >= 500)).toEqual([]);
  } finally {
    await server.stop();
  }
});
