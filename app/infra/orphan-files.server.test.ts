import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { getFileStore, newFileKey } from "~/infra/file-store.server";
import { FILE_KEY_COLUMNS } from "~/infra/file-references.server";
import { sweepOrphanFiles } from "~/infra/orphan-files.server";
import { variantKey } from "~/lib/image-variants";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";

const past = new Date(Date.now() - 60_000);

async function writeAged(key: string, when = past) {
  await getFileStore().write(key, Buffer.from(key));
  const file = path.join(getConfig().filesDir, key);
  fs.utimesSync(file, when, when);
  return file;
}

describe("sweepOrphanFiles", () => {
  it("removes files no row names and half-written files from before the start, and keeps everything else", async () => {
    const db = getDb();
    const { user } = await createTestUser();
    const { listing, stylized } = await createListing(user.id);
    const kit = `kits/${"k".repeat(16)}.zip`;
    await writeAged(kit);
    const kitImage = await writeAged(`kits/${"k".repeat(16)}.png`);
    const now = new Date().toISOString();
    await db
      .insertInto("listing_platforms")
      .values({
        id: "pub-1",
        user_id: user.id,
        stylized_image_id: stylized.id,
        listing_id: listing.id,
        platform: "opensea",
        title: "t",
        price_cents: 100,
        artifact_key: kit,
        created_at: now,
        updated_at: now,
      })
      .execute();

    const orphan = await writeAged(newFileKey("styled", "png"));
    const partial = path.join(getConfig().filesDir, "optimized", "x.png.123.456.partial");
    fs.mkdirSync(path.dirname(partial), { recursive: true });
    fs.writeFileSync(partial, "half");
    fs.utimesSync(partial, past, past);
    const sample = await writeAged(newFileKey("samples", "jpg"));
    const startedAt = new Date();
    // Written after the start: may belong to work of this process; left alone.
    const fresh = await writeAged(
      newFileKey("originals", "png"),
      new Date(startedAt.getTime() + 1000),
    );

    const result = await sweepOrphanFiles(db, getConfig().filesDir, startedAt);

    expect(result.removed).toEqual([path.relative(getConfig().filesDir, orphan)]);
    expect(result.partials).toBe(1);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(partial)).toBe(false);
    for (const kept of [kitImage, sample, fresh]) expect(fs.existsSync(kept), kept).toBe(true);
    const store = getFileStore();
    for (const key of [
      listing.file_key,
      listing.preview_key,
      listing.source_file_key,
      stylized.file_key!,
      kit,
    ]) {
      expect(await store.exists(key), key).toBe(true);
    }
    // Its own state: a later sweep in this file, once more than a second has passed, would take it.
    fs.rmSync(fresh);
  });

  it("keeps the AVIF/WebP/smaller copies of a file a row names, and removes those of a file none does", async () => {
    const db = getDb();
    const { user } = await createTestUser();
    const { listing } = await createListing(user.id);
    const kept = await writeAged(variantKey(listing.preview_key, 320, "avif"));
    const orphanImage = newFileKey("previews", "jpg");
    const orphan = await writeAged(variantKey(orphanImage, 480, "webp"));

    const result = await sweepOrphanFiles(db, getConfig().filesDir, new Date());

    expect(fs.existsSync(kept)).toBe(true);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(result.removed).toEqual([variantKey(orphanImage, 480, "webp")]);
  });

  it("knows every column whose name says it holds a file key", async () => {
    const db = getDb();
    const columns = new Set(FILE_KEY_COLUMNS.map(([table, column]) => `${table}.${column}`));
    // Keys that name no file: a payout movement's idempotency key, an SFTP server's recorded host key,
    // a report's reporter address in lower case (one report a reporter and target), a follower's
    // address in lower case (one follow an address and creator);
    // and object storage's keys in flight (file_intents), which record writes and removals, not references.
    const notFiles = new Set([
      "test_payout_movements.idempotency_key",
      "integrations.host_key",
      "reports.email_key",
      "follows.email_key",
      "file_intents.file_key",
    ]);
    const found: string[] = [];
    for (const table of await db.introspection.getTables()) {
      for (const column of table.columns)
        if (/(^|_)key$/.test(column.name)) found.push(`${table.name}.${column.name}`);
    }
    found.splice(0, found.length, ...found.filter((name) => !notFiles.has(name)));
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((name) => !columns.has(name))).toEqual([]);
  });
});
