import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { DEMO_CREATOR } from "../../db/demo-account";
import { expectPaidOrdersWhole, payInTestCheckout } from "./support/purchases";
import { ROOT as root, startServer, type RunningServer } from "./support/server-process";

/**
 * `npm run backup` copies the data directory of a running
 * server that is taking orders and uploads at that moment; `npm run restore`
 * puts it into a fresh data directory; a second server on the restored
 * directory serves the same marketplace, files, sign-ins and purchases.
 */
const run = promisify(execFile);
const tsx = path.join(root, "node_modules", ".bin", "tsx");
const scratch = path.join(root, "tests", ".tmp", "process-backup");
const portrait = fs.readFileSync(path.join(root, "tests/fixtures/portrait.png"));

interface MarketItem {
  id: string;
  title: string;
  price: string;
  previewUrl: string;
}

async function json<T>(response: Response): Promise<T> {
  expect(response.headers.get("content-type")).toMatch(/application\/json/);
  return (await response.json()) as T;
}

async function buy(server: RunningServer, listingId: string, email: string): Promise<string> {
  const created = await server.fetch("/api/create-checkout-session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      cartItems: [{ imageId: listingId, licenseType: "standard" }],
      customerInfo: { name: "Backup Buyer", email },
    }),
  });
  expect(created.status).toBe(200);
  const { sessionId } = await json<{ sessionId: string }>(created);
  await payInTestCheckout(server, sessionId);
  return sessionId;
}

async function bytesOf(server: RunningServer, url: string): Promise<Buffer> {
  const response = await server.fetch(url);
  expect(response.status, url).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

test("a backup taken while the server is busy restores into a fresh directory that serves the same data", async () => {
  test.setTimeout(120_000);
  fs.rmSync(scratch, { recursive: true, force: true });
  const original = await startServer({
    dataDir: path.join(scratch, "data"),
    port: 3695,
    seed: true,
    // Every buyer here comes from this machine's one address: lift the per-address checkout limit.
    env: { CHECKOUTS_PER_ADDRESS: "1000000" },
  });
  let restored: RunningServer | undefined;
  try {
    // Data worth keeping: the demo listings, a purchase with its downloads, a creator's upload.
    const market = await json<{ items: MarketItem[] }>(
      await original.fetch("/api/marketplace?limit=100"),
    );
    expect(market.items.length).toBeGreaterThan(0);
    const sessionId = await buy(original, market.items[0].id, "kept@backup.test");
    const login = await original.fetch("/api/token-login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: DEMO_CREATOR.email, password: DEMO_CREATOR.password }),
    });
    expect(login.status).toBe(200);
    const { token } = await json<{ token: string }>(login);
    const uploadPortrait = async () => {
      const upload = new FormData();
      upload.set("image", new Blob([portrait], { type: "image/png" }), "portrait.png");
      const uploaded = await original.fetch("/api/token-images/upload", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}` },
        body: upload,
      });
      expect(uploaded.status).toBe(201);
      return json<{ id: string; originalUrl: string }>(uploaded);
    };
    const image = await uploadPortrait();

    // Orders keep arriving while the backup runs, and a creator keeps uploading and deleting images.
    let busy = true;
    let ordersDuringBackup = 0;
    let deletionsDuringBackup = 0;
    const churn = (async () => {
      while (busy) {
        const { id } = await uploadPortrait();
        const deleted = await original.fetch(`/api/token-images/${id}`, {
          method: "DELETE",
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(deleted.status).toBe(204);
        deletionsDuringBackup++;
      }
    })();
    const traffic = (async () => {
      while (busy) {
        await buy(
          original,
          market.items[ordersDuringBackup % market.items.length].id,
          `busy${ordersDuringBackup}@backup.test`,
        );
        ordersDuringBackup++;
      }
    })();
    const backupDir = path.join(scratch, "backup");
    const backup = await run(tsx, ["scripts/backup.ts", backupDir], {
      cwd: root,
      env: { ...process.env, DATA_DIR: original.dataDir },
    });
    expect(backup.stdout).toMatch(/Backed up the database and \d+ files/);
    busy = false;
    await Promise.all([traffic, churn]);
    expect(ordersDuringBackup, "orders were placed while the backup ran").toBeGreaterThan(0);
    expect(deletionsDuringBackup, "images were deleted while the backup ran").toBeGreaterThan(0);

    const freshDir = path.join(scratch, "restored");
    const restore = await run(tsx, ["scripts/restore.ts", backupDir], {
      cwd: root,
      env: { ...process.env, DATA_DIR: freshDir },
    });
    expect(restore.stdout).toMatch(/Restored/);
    restored = await startServer({ dataDir: freshDir, port: 3696, seed: false });

    // The same marketplace, with the same preview files.
    const again = await json<{ items: MarketItem[] }>(
      await restored.fetch("/api/marketplace?limit=100"),
    );
    expect(again.items.map(({ id, title, price }) => ({ id, title, price }))).toEqual(
      market.items.map(({ id, title, price }) => ({ id, title, price })),
    );
    expect(await bytesOf(restored, again.items[0].previewUrl)).toEqual(
      await bytesOf(original, market.items[0].previewUrl),
    );

    // The creator signs in with the same password and sees the same upload (signed URLs use the restored secret).
    const relogin = await restored.fetch("/api/token-login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: DEMO_CREATOR.email, password: DEMO_CREATOR.password }),
    });
    expect(relogin.status).toBe(200);
    const { token: restoredToken } = await json<{ token: string }>(relogin);
    const mine = await restored.fetch(`/api/token-images/${image.id}`, {
      headers: { Authorization: `Bearer ${restoredToken}` },
    });
    expect(mine.status).toBe(200);
    const restoredImage = await json<{ originalUrl: string }>(mine);
    expect(await bytesOf(restored, restoredImage.originalUrl)).toEqual(
      await bytesOf(original, image.originalUrl),
    );
    // The bearer token issued before the backup is still valid on the copy.
    expect(
      (await restored.fetch("/api/token-user", { headers: { Authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(200);

    // The purchase made before the backup: paid, with working downloads of the same file.
    const status = await json<{ success: boolean; downloads: Array<{ downloadUrl: string }> }>(
      await restored.fetch(`/api/payment-status/${encodeURIComponent(sessionId)}`),
    );
    expect(status.success).toBe(true);
    const originalStatus = await json<{ downloads: Array<{ downloadUrl: string }> }>(
      await original.fetch(`/api/payment-status/${encodeURIComponent(sessionId)}`),
    );
    expect(await bytesOf(restored, new URL(status.downloads[0].downloadUrl).pathname)).toEqual(
      await bytesOf(original, new URL(originalStatus.downloads[0].downloadUrl).pathname),
    );

    // The copy is one consistent moment: every paid order in it has its grants and ledger rows, and every row's file exists.
    // Files written after the database snapshot were copied too; the restored server removed them at start.
    expectPaidOrdersWhole(restored);
  } finally {
    await restored?.stop();
    await original.stop();
  }
});
