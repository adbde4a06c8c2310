import { faceConsentText } from "~/features/privacy/face-consent";
import { currentFaceConsentVersion } from "~/features/privacy/face-consent.server";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { unzipSync } from "fflate";
import { getDb } from "~/infra/db.server";
import { getConfig } from "~/infra/config.server";
import { getLocalFileStore, newFileKey } from "~/infra/file-store.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import {
  ACCOUNT_EXPORT_JOB,
  accountExportJobHandler,
} from "~/features/accounts/exports/account-export-job.server";
import {
  accountExportView,
  sweepExpiredExports,
  EXPORT_LINK_MS,
} from "~/features/accounts/exports/account-exports.server";
import { ACCOUNT_EXPORT_SOURCES } from "~/boot/job-kinds.server";
import { saveVerifiedFace } from "~/features/accounts/verified-faces.server";
import { VERIFIED_FACE_EXPORT_NOTE } from "~/features/accounts/exports/account-export-job.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { callRoute, makeRequest, ORIGIN } from "#tests/setup/requests";
import { queuedMailTo } from "#tests/setup/mail-queue";
import { apiRoutes } from "#tests/setup/api-routes";
import { connectOpenSeaByKey } from "#tests/setup/integrations";
import { testTies } from "#tests/setup/ties";
import { rowWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const { exportRoute, exportStatusRoute, exportDownloadRoute } = apiRoutes({
  exportRoute: "/api/account/export",
  exportStatusRoute: "/api/account/export/{id}",
  exportDownloadRoute: "/api/account/export/{id}/download",
});

/** GET the export's `url` (its download path) with the token given, or with no credential at all. */
async function downloadExport(url: string, id: string, token?: string) {
  return callRoute(
    exportDownloadRoute.loader,
    makeRequest(new URL(url).pathname, token ? { token } : {}),
    { id },
  );
}

const WALLET = "0x00000000000000000000000000000000000a11ce";
const sha256 = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex");

function exportWorker() {
  return new JobWorker({
    db: getDb(),
    handlers: {
      [ACCOUNT_EXPORT_JOB]: accountExportJobHandler({
        store: getLocalFileStore(),
        config: getConfig,
        sources: ACCOUNT_EXPORT_SOURCES,
        ties: testTies,
      }),
    },
    concurrency: 1,
    backoff: { baseMs: 0, maxMs: 0 },
    log: () => {},
  });
}

/** An export's status and its view, as the export routes answer them. */
async function exportAnswer(response: Response) {
  const body = (await response.json()) as {
    id: string;
    status: string;
    url: string | null;
    expiresAt: string | null;
  };
  return { status: response.status, body };
}

async function askForExport(token: string) {
  const response = await callRoute(
    exportRoute.action,
    makeRequest("/api/account/export", { method: "POST", token }),
  );
  return exportAnswer(response);
}

async function exportStatus(token: string, id: string) {
  const response = await callRoute(
    exportStatusRoute.loader,
    makeRequest(`/api/account/export/${id}`, { token }),
    { id },
  );
  return exportAnswer(response);
}

/** A paid order of a buyer's for the listing, with the creator's share in the ledger. */
async function sellListing(listing: {
  id: string;
  user_id: string;
  title: string;
  price_cents: number;
  file_key: string;
}) {
  const db = getDb();
  const now = new Date().toISOString();
  const orderId = crypto.randomUUID();
  const itemId = crypto.randomUUID();
  await db
    .insertInto("orders")
    .values({
      id: orderId,
      checkout_session_hash: crypto.randomBytes(16).toString("hex"),
      license_id: "license-of-the-buyer-0001",
      provider: "test",
      status: "paid",
      customer_name: "Beatrix Buyersdottir",
      customer_email: "beatrix.buyer@example.org",
      customer_company: "Buyer Company BV",
      total_cents: listing.price_cents,
      created_at: now,
      updated_at: now,
      paid_at: now,
    })
    .execute();
  await db
    .insertInto("order_items")
    .values({
      id: itemId,
      order_id: orderId,
      listing_id: listing.id,
      creator_id: listing.user_id,
      title: listing.title,
      style: "anime",
      price_cents: listing.price_cents,
      file_key: listing.file_key,
      file_mime_type: "image/jpeg",
      created_at: now,
    })
    .execute();
  await db
    .insertInto("earnings")
    .values({
      id: crypto.randomUUID(),
      order_item_id: itemId,
      order_id: orderId,
      creator_id: listing.user_id,
      listing_id: listing.id,
      amount_cents: 2125,
      platform_fee_cents: 375,
      test_mode: 1,
      created_at: now,
    })
    .execute();
  return { itemId, orderId };
}

describe("the export of a creator's data", () => {
  it("builds one zip of account.json, every image byte for byte, listings, sales and payouts, without a secret or a buyer's data", async () => {
    const creator = await createTestUser({ firstName: "Ada", lastName: "Exporter" });
    // A verified face: the export says it exists, never its numbers (biometric data).
    const descriptor = Array.from({ length: 1024 }, (_, i) => Math.sin(i + 1) / 10);
    await saveVerifiedFace(getDb(), {
      userId: creator.user.id,
      descriptor,
      now: new Date(),
      sameFaceUserId: null,
    });
    const storedDescriptor = (
      await rowWhere("verified_faces", "descriptor", "user_id", creator.user.id)
    ).descriptor;
    const other = await createTestUser();
    const store = getLocalFileStore();

    // A profile photo: the export carries it as profile/photo.jpg.
    const avatarKey = newFileKey("avatars", "jpg");
    const avatarBytes = crypto.randomBytes(2000);
    await store.write(avatarKey, avatarBytes);
    await updateWhere("users", { profile_image_url: `/media/${avatarKey}` }, "id", creator.user.id);

    // An integration connected with a key: the key must not be in the export.
    const apiKey = `sentinel-opensea-key-${crypto.randomBytes(12).toString("hex")}`;
    await connectOpenSeaByKey(creator.token, apiKey, WALLET);

    // An original, its style (with an optimized version), the listing's sold file and preview, and a sale.
    const { listing, stylized } = await createListing(creator.user.id, {
      title: "Exported Portrait",
    });
    const optimizedKey = newFileKey("optimized", "webp");
    await store.write(optimizedKey, crypto.randomBytes(3000));
    await updateWhere("stylized_images", { optimized_file_key: optimizedKey }, "id", stylized.id);
    const sale = await sellListing(listing);
    // Someone else's image is not in it.
    const othersListing = await createListing(other.user.id);

    const asked = await askForExport(creator.token);
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ status: "pending", url: null });
    // Asking again while it is pending answers the same export.
    const again = await askForExport(creator.token);
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(asked.body.id);
    expect(await selectWhere("jobs", "id", "kind", ACCOUNT_EXPORT_JOB)).toHaveLength(1);

    // Another user's id is not found, for them.
    expect((await exportStatus(other.token, asked.body.id)).status).toBe(404);

    await exportWorker().drain();

    const ready = await exportStatus(creator.token, asked.body.id);
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe("ready");
    expect(ready.body.url).toBe(`${ORIGIN}/api/account/export/${asked.body.id}/download`);
    const expiresAt = Date.parse(ready.body.expiresAt!);
    expect(expiresAt - Date.now()).toBeGreaterThan(EXPORT_LINK_MS - 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(EXPORT_LINK_MS);

    // The link alone opens nothing: without the owner's session or token, 401; another's token, 404.
    const anonymous = await downloadExport(ready.body.url!, asked.body.id);
    expect(anonymous.status).toBe(401);
    expect((await downloadExport(ready.body.url!, asked.body.id, other.token)).status).toBe(404);

    // With the owner's token, the link downloads the zip.
    const download = await downloadExport(ready.body.url!, asked.body.id, creator.token);
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("application/zip");
    expect(download.headers.get("Cache-Control")).toBe("private, no-store");
    expect(download.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="selfie-studio-data\.zip"$/,
    );
    const zipBytes = Buffer.from(await download.arrayBuffer());
    const entries = unzipSync(zipBytes);

    // Every image file of the creator's, byte for byte as stored.
    const expected: Record<string, string> = {
      [`images/originals/${stylized.image_id}.png`]: (
        await rowWhere("images", "file_key", "id", stylized.image_id)
      ).file_key,
      [`images/styles/${stylized.id}.jpg`]: stylized.file_key!,
      [`images/optimized/${stylized.id}.webp`]: optimizedKey,
      [`images/listings/${listing.id}.${listing.file_key.split(".").pop()}`]: listing.file_key,
      [`images/previews/${listing.id}.${listing.preview_key.split(".").pop()}`]:
        listing.preview_key,
    };
    for (const [name, key] of Object.entries(expected)) {
      expect(entries[name], name).toBeDefined();
      expect(sha256(entries[name]), name).toBe(sha256(await store.read(key)));
    }
    const imageNames = Object.keys(entries).filter((name) => name.startsWith("images/"));
    expect(imageNames.sort()).toEqual(Object.keys(expected).sort());
    expect(Object.keys(entries).some((name) => name.includes(othersListing.listing.id))).toBe(
      false,
    );
    // The manifest's hashes are the entries' own.
    const manifest = JSON.parse(Buffer.from(entries["files.json"]).toString("utf8")) as {
      files: { name: string; sha256: string }[];
      missing: string[];
    };
    expect(manifest.missing).toEqual([]);
    for (const file of manifest.files) expect(sha256(entries[file.name])).toBe(file.sha256);

    // account.json: the profile, the consent record, the platform by name; no key anywhere in the zip.
    const account = JSON.parse(Buffer.from(entries["account.json"]).toString("utf8"));
    expect(account.account).toMatchObject({
      id: creator.user.id,
      email: creator.user.email,
      firstName: "Ada",
      lastName: "Exporter",
      consent: { faceProcessing: { given: true, version: currentFaceConsentVersion(getConfig()) } },
    });
    // The consent log: the consent given at sign-up, with the very lines agreed to.
    expect(account.consentLog).toEqual([
      {
        purpose: "face-processing",
        action: "grant",
        textVersion: currentFaceConsentVersion(getConfig()),
        text: faceConsentText({ kind: "local" }),
        at: account.account.consent.faceProcessing.at,
      },
    ]);
    expect(account.integrations).toEqual([
      {
        platform: "OpenSea",
        walletAddress: WALLET,
        shopDomain: null,
        accountName: null,
        connectedAt: expect.any(String),
      },
    ]);
    // The sessions and tokens: when and from what, never a secret or its hash.
    expect(account.apiTokens).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: expect.any(String), createdAt: expect.any(String) }),
      ]),
    );
    expect(Array.isArray(account.sessions)).toBe(true);
    const tokenHashes = await selectWhere("api_tokens", "token_hash", "user_id", creator.user.id);
    for (const { token_hash } of tokenHashes) {
      expect(zipBytes.includes(Buffer.from(token_hash))).toBe(false);
    }

    // The profile photo, byte for byte.
    expect(sha256(entries["profile/photo.jpg"])).toBe(sha256(avatarBytes));

    // images.json: each upload's and style's metadata, with who processed it.
    const images = JSON.parse(Buffer.from(entries["images.json"]).toString("utf8"));
    expect(images.uploads).toEqual([
      expect.objectContaining({ id: stylized.image_id, uploadedAt: expect.any(String) }),
    ]);
    expect(images.styles).toEqual([
      expect.objectContaining({
        id: stylized.id,
        uploadId: stylized.image_id,
        madeBy: "this server",
      }),
    ]);

    // README.txt: what each file holds, and Art. 15(1)'s information from the privacy notice.
    const readme = Buffer.from(entries["README.txt"]).toString("utf8");
    for (const heading of [
      "WHAT IS IN THIS EXPORT",
      "WHERE THE DATA CAME FROM",
      "WHO IS RESPONSIBLE FOR YOUR DATA",
      "WHY YOUR DATA IS USED, AND ON WHAT LEGAL BASIS",
      "WHO ELSE RECEIVES YOUR DATA",
      "HOW LONG EVERYTHING ELSE IS KEPT",
      "YOUR RIGHTS",
    ]) {
      expect(readme).toContain(heading);
    }
    expect(readme).toContain("supervisory authority");
    expect(readme).toContain("by automated means alone");
    expect(account.verifiedFace).toEqual({
      verified: true,
      at: expect.any(String),
      descriptor: VERIFIED_FACE_EXPORT_NOTE,
    });
    expect(zipBytes.includes(Buffer.from(storedDescriptor.slice(0, 64)))).toBe(false);
    for (const secret of [apiKey, apiKey.slice(-8), creator.user.password_hash, creator.token]) {
      expect(zipBytes.includes(Buffer.from(secret))).toBe(false);
    }

    // listings.json, sales.json (the creator's view of the sale, nothing of the buyer), payouts.json.
    const listings = JSON.parse(Buffer.from(entries["listings.json"]).toString("utf8"));
    expect(listings).toEqual([
      expect.objectContaining({ id: listing.id, title: "Exported Portrait", price: "25" }),
    ]);
    const sales = JSON.parse(Buffer.from(entries["sales.json"]).toString("utf8"));
    expect(sales).toEqual([
      expect.objectContaining({
        saleReference: sale.itemId,
        title: "Exported Portrait",
        price: "25",
        share: "21.25",
        refundState: "none",
      }),
    ]);
    for (const buyerData of [
      "Beatrix",
      "beatrix.buyer@example.org",
      "Buyer Company",
      "license-of-the-buyer",
      sale.orderId,
    ]) {
      expect(zipBytes.includes(Buffer.from(buyerData))).toBe(false);
    }
    const payouts = JSON.parse(Buffer.from(entries["payouts.json"]).toString("utf8"));
    expect(payouts).toMatchObject({
      account: { status: "not_connected" },
      balance: { earned: "21.25" },
    });

    // The creator is mailed where to download it, never a link that opens the zip by itself.
    const [mail] = await queuedMailTo(creator.user.email);
    expect(mail.subject).toMatch(/data is ready/);
    expect(mail.text).toContain(`${ORIGIN}/settings/export`);
    expect(mail.text).not.toContain("/download");
    expect(mail.text).not.toContain("/media/exports/");
  });

  it("stops the link after 24 hours and the sweep deletes the zip", async () => {
    const creator = await createTestUser();
    await createListing(creator.user.id);
    const asked = await askForExport(creator.token);
    await exportWorker().drain();
    const db = getDb();
    const row = await rowWhere("account_exports", "*", "id", asked.body.id);
    const key = row.file_key!;
    const later = new Date(Date.parse(row.expires_at!) + 1000);

    // After the expiry the API gives no link, and the download is refused.
    expect(accountExportView(row, later, ORIGIN).url).toBeNull();
    vi.useFakeTimers({ now: later, toFake: ["Date"] });
    try {
      const url = `${ORIGIN}/api/account/export/${row.id}/download`;
      expect((await downloadExport(url, row.id, creator.token)).status).toBe(404);
    } finally {
      vi.useRealTimers();
    }

    // Not before its time; then the file is gone and the row lets go of it.
    expect(await sweepExpiredExports(db, getLocalFileStore(), new Date())).toBe(0);
    expect(await sweepExpiredExports(db, getLocalFileStore(), later)).toBeGreaterThanOrEqual(1);
    expect(await getLocalFileStore().exists(key)).toBe(false);
    const swept = await rowWhere("account_exports", "*", "id", asked.body.id);
    expect(swept.file_key).toBeNull();
    expect(accountExportView(swept, later, ORIGIN)).toMatchObject({ status: "ready", url: null });
  });

  it("answers 429 within the hour after a ready export, and takes a new one after a failed one", async () => {
    const creator = await createTestUser();
    const first = await askForExport(creator.token);
    await exportWorker().drain();
    const refused = await callRoute(
      exportRoute.action,
      makeRequest("/api/account/export", { method: "POST", token: creator.token }),
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(3500);
    expect(((await refused.json()) as { message: string }).message).toMatch(/one export an hour/);

    await updateWhere("account_exports", { status: "failed" }, "id", first.body.id);
    const retried = await askForExport(creator.token);
    expect(retried.status).toBe(202);
    expect(retried.body.id).not.toBe(first.body.id);
  });

  it("keeps no file when the export's row is gone before its zip is stored (the account was erased)", async () => {
    const creator = await createTestUser();
    await createListing(creator.user.id);
    const asked = await askForExport(creator.token);
    await getDb().deleteFrom("account_exports").where("id", "=", asked.body.id).execute();
    await exportWorker().drain();
    const job = await getDb()
      .selectFrom("jobs")
      .select("status")
      .where("kind", "=", ACCOUNT_EXPORT_JOB)
      .where("user_id", "=", creator.user.id)
      .executeTakeFirstOrThrow();
    expect(job.status).toBe("done");
    const exportsDir = path.join(getLocalFileStore().root, "exports");
    const rows = await getDb()
      .selectFrom("account_exports")
      .select("file_key")
      .where("file_key", "is not", null)
      .execute();
    const kept = new Set(rows.map((row) => row.file_key!.replace(/^exports\//, "")));
    const onDisk = fs.existsSync(exportsDir) ? fs.readdirSync(exportsDir) : [];
    expect(onDisk.filter((name) => !kept.has(name))).toEqual([]);
  });
});
