import fs from "node:fs";
import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";
import { getLocalFileStore } from "~/infra/file-store.server";
import {
  ensureVariant,
  MAX_WAITING_VISITOR_ENCODES,
  VariantQueueFullError,
  visitorEncodesWaiting,
} from "~/infra/image-variants.server";
import { variantKey } from "~/lib/image-variants";
import { signedMediaUrl } from "~/infra/signed-urls.server";
import { loader as mediaRoute } from "~/routes/_resources+/media.$";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { callRoute, makeRequest } from "#tests/setup/requests";

const get = (path: string, headers: Record<string, string> = {}) =>
  callRoute(mediaRoute, makeRequest(path, { headers }), {
    "*": new URL(path, "http://x").pathname.replace(/^\/media\//, ""),
  });

describe("stored files' caching", () => {
  it("a public preview is cacheable for ten minutes (someone's, and erasable), with a validator that answers 304 when it still matches", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const first = await get(`/media/${listing.preview_key}`);
    expect(first.status).toBe(200);
    expect(first.headers.get("Cache-Control")).toBe("public, max-age=600");
    const tag = first.headers.get("ETag");
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(100);

    const again = await get(`/media/${listing.preview_key}`, { "If-None-Match": tag! });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(tag);
    expect(await again.text()).toBe("");
    // Another file's tag, or none, gets the bytes.
    expect(
      (await get(`/media/${listing.preview_key}`, { "If-None-Match": '"something-else"' })).status,
    ).toBe(200);
  });

  it("a private file's copy is private and kept no longer than its signed link works", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const response = await get(signedMediaUrl(listing.file_key, 600));
    expect(response.status).toBe(200);
    const maxAge = Number(
      /^private, max-age=(\d+)$/.exec(response.headers.get("Cache-Control") ?? "")?.[1],
    );
    expect(maxAge).toBeGreaterThan(590);
    expect(maxAge).toBeLessThanOrEqual(600);
    const tag = response.headers.get("ETag")!;
    expect(
      (await get(signedMediaUrl(listing.file_key, 600), { "If-None-Match": `W/${tag}` })).status,
    ).toBe(304);
    // An expired link is refused, validator or not.
    expect(
      (await get(signedMediaUrl(listing.file_key, -10), { "If-None-Match": tag })).status,
    ).toBe(403);
  });
});

describe("image variants (?w=&fmt=)", () => {
  it("serves a public preview as AVIF, WebP or a narrower JPEG, with the preview's caching and a validator of its own", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const original = await get(`/media/${listing.preview_key}`);
    for (const [format, type] of [
      ["avif", "image/avif"],
      ["webp", "image/webp"],
      ["jpg", "image/jpeg"],
    ] as const) {
      const response = await get(`/media/${listing.preview_key}?w=320&fmt=${format}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe(type);
      expect(response.headers.get("Cache-Control")).toBe("public, max-age=600");
      expect(response.headers.get("Cross-Origin-Resource-Policy")).toBe("cross-origin");
      const tag = response.headers.get("ETag")!;
      expect(tag).not.toBe(original.headers.get("ETag"));
      const bytes = Buffer.from(await response.arrayBuffer());
      expect((await sharp(bytes).metadata()).width).toBe(320);
      const again = await get(`/media/${listing.preview_key}?w=320&fmt=${format}`, {
        "If-None-Match": tag,
      });
      expect(again.status).toBe(304);
    }
  });

  it("makes a variant of a preview stored before variants existed on its first request, and keeps it", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id); // no warm-up in tests: like an old preview
    const store = getLocalFileStore();
    const key = variantKey(listing.preview_key, 480, "avif");
    expect(await store.exists(key)).toBe(false);
    expect((await get(`/media/${listing.preview_key}?w=480&fmt=avif`)).status).toBe(200);
    expect(await store.exists(key)).toBe(true);
    const { mtimeMs } = fs.statSync(store.pathOf(key));
    expect((await get(`/media/${listing.preview_key}?w=480&fmt=avif`)).status).toBe(200);
    expect(fs.statSync(store.pathOf(key)).mtimeMs).toBe(mtimeMs); // served, not encoded again
  });

  it("serves a private image's variant only through its signed link, privately", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const response = await get(`${signedMediaUrl(listing.file_key, 600)}&w=320&fmt=webp`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/webp");
    expect(response.headers.get("Cache-Control")).toMatch(/^private, max-age=\d+$/);
    expect(response.headers.get("Cross-Origin-Resource-Policy")).toBe("same-origin");
    expect((await get(`/media/${listing.file_key}?w=320&fmt=webp`)).status).toBe(403);
  });

  it("refuses a width or format it does not make, half a pair, and variants of a variant", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const base = `/media/${listing.preview_key}`;
    for (const query of [
      "?w=100&fmt=webp",
      "?w=320&fmt=gif",
      "?w=320",
      "?fmt=avif",
      "?w=0320&fmt=webp",
    ]) {
      expect((await get(`${base}${query}`)).status, query).toBe(404);
    }
    expect(
      (await get(`/media/${variantKey(listing.preview_key, 320, "jpg")}?w=320&fmt=webp`)).status,
    ).toBe(404);
  });

  it("while the visitors' encodes waiting are at their cap, a variant is answered with the image itself, kept by no cache, and nothing more is queued", async () => {
    const creator = await createTestUser();
    const store = getLocalFileStore();
    // Old previews (no variants made at listing in unit tests): each first request would be an encode.
    const previews = await Promise.all(
      Array.from({ length: MAX_WAITING_VISITOR_ENCODES + 2 }, () =>
        createListing(creator.user.id).then(({ listing }) => listing.preview_key),
      ),
    );
    const [blocked, ...rest] = previews;
    const queued = rest.slice(0, MAX_WAITING_VISITOR_ENCODES);
    const refused = rest[MAX_WAITING_VISITOR_ENCODES];
    // The encoder is held on the first preview until the test lets it go.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const read = store.read.bind(store);
    const spy = vi.spyOn(store, "read").mockImplementation(async (key: string) => {
      if (key === blocked) {
        started();
        await held;
      }
      return read(key);
    });
    try {
      const first = ensureVariant(store, blocked, 320, "webp");
      await running;
      const waiting = queued.map((key) => ensureVariant(store, key, 320, "webp"));
      await vi.waitFor(() => expect(visitorEncodesWaiting()).toBe(MAX_WAITING_VISITOR_ENCODES));
      await expect(ensureVariant(store, refused, 320, "webp")).rejects.toBeInstanceOf(
        VariantQueueFullError,
      );

      const original = await store.read(refused);
      const response = await get(`/media/${refused}?w=320&fmt=webp`);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("image/jpeg");
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      expect(Buffer.from(await response.arrayBuffer()).equals(original)).toBe(true);
      expect(visitorEncodesWaiting()).toBe(MAX_WAITING_VISITOR_ENCODES);
      expect(await store.exists(variantKey(refused, 320, "webp"))).toBe(false);

      release();
      await Promise.all([first, ...waiting]);
      // With room again, the same URL gets the variant, cached as the preview is.
      const later = await get(`/media/${refused}?w=320&fmt=webp`);
      expect(later.headers.get("Content-Type")).toBe("image/webp");
      expect(later.headers.get("Cache-Control")).toBe("public, max-age=600");
    } finally {
      release();
      spy.mockRestore();
    }
  });
});
