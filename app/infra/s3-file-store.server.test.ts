import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3ServerEnv, startS3Server, type S3TestServer } from "#tests/setup/s3-server";
import { getDb } from "~/infra/db.server";
import {
  getFileStore,
  getObjectStore,
  newFileKey,
  type S3FileStore,
} from "~/infra/file-store.server";
import {
  recordFileRemoval,
  sweepObjectStore,
  UNREFERENCED_INTENT_MS,
} from "~/infra/file-intents.server";
import { signedDownloadUrl, signedMediaUrl, publicMediaUrl } from "~/infra/signed-urls.server";
import * as media from "~/routes/_resources+/media.$";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { apiRoute } from "#tests/setup/api-routes";
import { fixture, uploadRequest } from "#tests/setup/studio";
import { selectWhere } from "#tests/setup/rows-where";
import { uploadedImageRow } from "#tests/setup/studio-api";

// The app's object storage settings, before anything reads the configuration.
const PORT = 5101;
const s3Dir = path.join(process.env.DATA_DIR!, "s3rver");
Object.assign(process.env, s3ServerEnv(PORT));

let s3: S3TestServer | undefined;
const start = async () => {
  s3 = await startS3Server({ port: PORT, directory: s3Dir });
};
beforeAll(start);
afterAll(async () => {
  await s3?.close();
  for (const name of Object.keys(s3?.env ?? {})) delete process.env[name];
});

const store = () => getObjectStore() as S3FileStore;
const MINUTE = 60 * 1000;
const objectsIn = (bucket: string) =>
  fs.existsSync(path.join(s3Dir, bucket))
    ? fs.readdirSync(path.join(s3Dir, bucket), { recursive: true }).map(String)
    : [];

/** A portrait a new creator uploads through the API (a 201): its images row. */
async function uploadedPortrait() {
  const { token } = await createTestUser();
  return uploadedImageRow(token);
}

describe("the S3 file store", () => {
  it("is the store the settings choose", () => {
    expect(getFileStore().kind).toBe("s3");
  });

  it("writes, reads, streams, sizes and finds private and public files", async () => {
    const privateKey = newFileKey("styled", "png");
    const publicKey = newFileKey("previews", "jpg");
    await store().write(privateKey, Buffer.from("private bytes"));
    await store().write(publicKey, Buffer.from("public bytes"));
    expect((await store().read(privateKey)).toString()).toBe("private bytes");
    const chunks: Buffer[] = [];
    for await (const chunk of store().stream(publicKey)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe("public bytes");
    expect(await store().size(privateKey)).toBe(13);
    expect(await store().exists(privateKey)).toBe(true);
    expect(await store().exists(newFileKey("styled", "png"))).toBe(false);
    // Each in its bucket.
    expect(objectsIn("selfie-files").some((name) => name.includes(privateKey.split("/")[1]))).toBe(
      true,
    );
    expect(objectsIn("selfie-public").some((name) => name.includes(publicKey.split("/")[1]))).toBe(
      true,
    );
    // A missing key read is ENOENT, as on the volume.
    await expect(store().read(newFileKey("styled", "png"))).rejects.toMatchObject({
      code: "ENOENT",
    });
    expect(await store().isReachable()).toBe(true);
  });

  it("stores a public file at FILES_PUBLIC_BASE_URL, someone's cached ten minutes, a sample a year", async () => {
    const key = newFileKey("previews", "jpg");
    await store().write(key, fixture("portrait.png"));
    const url = publicMediaUrl(key);
    expect(url).toBe(`http://127.0.0.1:${PORT}/selfie-public/${key}`);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=600");
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    const avatar = newFileKey("avatars", "jpg");
    await store().write(avatar, fixture("portrait.png"));
    expect((await fetch(publicMediaUrl(avatar))).headers.get("cache-control")).toBe(
      "public, max-age=600",
    );
    const sample = newFileKey("samples", "jpg");
    await store().write(sample, fixture("portrait.png"));
    expect((await fetch(publicMediaUrl(sample))).headers.get("cache-control")).toBe(
      "public, max-age=31536000, immutable",
    );
  });

  it("streams a scratch file up in parts, then removes the scratch file", async () => {
    const scratch = await store().scratchPath();
    const bytes = crypto.randomBytes(11 * 1024 * 1024); // three parts of at most 5 MB
    fs.writeFileSync(scratch, bytes);
    const key = newFileKey("originals", "png");
    await store().putFile(key, scratch);
    expect(fs.existsSync(scratch)).toBe(false);
    expect(await store().size(key)).toBe(bytes.length);
    expect((await store().read(key)).equals(bytes)).toBe(true);
  });

  it("hands out presigned URLs the store honours, and refuses tampered or expired ones", async () => {
    const key = newFileKey("kits", "zip");
    await store().write(key, Buffer.from("kit"));
    const url = await store().presignedUrl(key, 60, "My kit.zip");
    const good = await fetch(url);
    expect(good.status).toBe(200);
    expect(await good.text()).toBe("kit");
    expect(good.headers.get("content-disposition")).toContain('attachment; filename="My kit.zip"');
    const tampered = new URL(url);
    const signature = tampered.searchParams.get("X-Amz-Signature")!;
    tampered.searchParams.set(
      "X-Amz-Signature",
      `${signature[0] === "a" ? "b" : "a"}${signature.slice(1)}`,
    );
    expect((await fetch(tampered)).status).toBe(403);
    const other = new URL(url);
    other.pathname = other.pathname.replace(key, newFileKey("kits", "zip"));
    expect((await fetch(other)).status).toBe(403);
    const shortLived = await store().presignedUrl(key, 1);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await fetch(shortLived)).status).toBe(403);
  });

  it("answers a signed /media URL of a private file with a redirect to a presigned URL", async () => {
    const key = newFileKey("styled", "png");
    await store().write(key, Buffer.from("styled bytes"));
    const url = signedMediaUrl(key);
    const response = await callRoute(media.loader, makeRequest(url), { "*": key });
    expect(response.status).toBe(302);
    const location = response.headers.get("location")!;
    expect(location).toContain("X-Amz-Signature=");
    expect(await (await fetch(location)).text()).toBe("styled bytes");
  });

  it("answers a signed download URL with a presigned URL that saves the file under its name", async () => {
    const key = newFileKey("optimized", "webp");
    await store().write(key, Buffer.from("optimized bytes"));
    const url = signedDownloadUrl(key, "selfie-studio-anime-2048x2048.webp");
    const response = await callRoute(media.loader, makeRequest(url), { "*": key });
    expect(response.status).toBe(302);
    const saved = await fetch(response.headers.get("location")!);
    expect(await saved.text()).toBe("optimized bytes");
    expect(saved.headers.get("content-disposition")).toBe(
      'attachment; filename="selfie-studio-anime-2048x2048.webp"',
    );
  });
});

describe("removals and orphans", () => {
  it("takes a removed object off its key at once, holds it 15 minutes unserved, then the sweep deletes it", async () => {
    const key = newFileKey("styled", "png");
    await store().write(key, Buffer.from("soon gone"));
    const handedOut = await store().presignedUrl(key, 300);
    const signed = signedMediaUrl(key);
    expect((await fetch(handedOut)).status).toBe(200);
    const removedAt = new Date();
    await store().remove(key);
    // Gone from its key there and then: the link handed out before, and the app's own.
    expect(await store().exists(key)).toBe(false);
    expect((await fetch(handedOut)).status).toBe(404);
    expect((await callRoute(media.loader, makeRequest(signed), { "*": key })).status).toBe(404);
    const held = () => objectsIn("selfie-files").some((name) => name.startsWith(`held/${key}`));
    expect(held()).toBe(true);
    await sweepObjectStore(getDb(), store(), new Date(removedAt.getTime() + 14 * MINUTE));
    expect(held()).toBe(true);
    const swept = await sweepObjectStore(
      getDb(),
      store(),
      new Date(removedAt.getTime() + 16 * MINUTE),
    );
    expect(swept.deleted).toContain(key);
    expect(held()).toBe(false);
    expect(await store().exists(key)).toBe(false);
  });

  it("refuses to sign a key whose removal is recorded, even while its object is still there", async () => {
    const key = newFileKey("styled", "png");
    await store().write(key, Buffer.from("still there"));
    // A removal recorded while the store did not answer: the object stays until the sweep.
    await recordFileRemoval(getDb(), [key]);
    expect(await store().exists(key)).toBe(true);
    const response = await callRoute(media.loader, makeRequest(signedMediaUrl(key)), { "*": key });
    expect(response.status).toBe(404);
  });

  it("puts a held object back when a row names its key again (the removal called off)", async () => {
    const image = await uploadedPortrait();
    // A removal whose row deletion did not commit: the row still names the key.
    await store().remove(image.file_key);
    expect(await store().exists(image.file_key)).toBe(false);
    await sweepObjectStore(getDb(), store(), new Date(Date.now() + 16 * MINUTE));
    expect(await store().exists(image.file_key)).toBe(true);
    expect(objectsIn("selfie-files").some((name) => name.includes(`held/${image.file_key}`))).toBe(
      false,
    );
  });

  it("deletes an object no row names an hour after its intent, and keeps a referenced one", async () => {
    const image = await uploadedPortrait();
    const orphan = newFileKey("originals", "png");
    await store().write(orphan, Buffer.from("no row names me"));
    const later = new Date(Date.now() + UNREFERENCED_INTENT_MS + MINUTE);
    const swept = await sweepObjectStore(getDb(), store(), later);
    expect(swept.deleted).toContain(orphan);
    expect(swept.deleted).not.toContain(image.file_key);
    expect(await store().exists(orphan)).toBe(false);
    expect(await store().exists(image.file_key)).toBe(true);
    // Resolved: the referenced key's intent is gone, so nothing is left to sweep.
    const intents = await getDb().selectFrom("file_intents").select("file_key").execute();
    expect(intents.map((row) => row.file_key)).not.toContain(image.file_key);
  });
});

describe("an unreachable object store", () => {
  it("answers an upload with 503 and Retry-After, and keeps nothing", async () => {
    const { user, token } = await createTestUser();
    await s3!.close();
    try {
      const response = await callRoute(
        apiRoute("/api/token-images/upload").action,
        uploadRequest(fixture("portrait.png"), { token, filename: "portrait.png" }),
      );
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("10");
      const body = JSON.stringify(await response.json());
      expect(body).not.toContain("S3RVER");
      expect(body).toContain("File storage is unavailable");
      expect(await store().isReachable()).toBe(false);
    } finally {
      await start();
    }
    const rows = await selectWhere("images", "id", "user_id", user.id);
    expect(rows).toEqual([]);
    const scratchDir = await store().scratchDir();
    expect(fs.readdirSync(scratchDir).filter((name) => name.endsWith(".upload"))).toEqual([]);
    // The intent recorded before the write is swept; nothing else was stored.
    const later = new Date(Date.now() + UNREFERENCED_INTENT_MS + MINUTE);
    await sweepObjectStore(getDb(), store(), later);
    expect(await getDb().selectFrom("file_intents").selectAll().execute()).toEqual([]);
  });
});
