import { describe, expect, it } from "vitest";
import { signedMediaUrl } from "~/infra/signed-urls.server";
import { loader as mediaRoute } from "~/routes/_resources+/media.$";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { callRoute, makeRequest } from "#tests/setup/requests";

const get = (path: string, headers: Record<string, string> = {}) =>
  callRoute(mediaRoute, makeRequest(path, { headers }), { "*": new URL(path, "http://x").pathname.replace(/^\/media\//, "") });

describe("stored files' caching", () => {
  it("a public preview is cacheable for a year, with a validator that answers 304 when it still matches", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const first = await get(`/media/${listing.preview_key}`);
    expect(first.status).toBe(200);
    expect(first.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const tag = first.headers.get("ETag");
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(100);

    const again = await get(`/media/${listing.preview_key}`, { "If-None-Match": tag! });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(tag);
    expect(await again.text()).toBe("");
    // Another file's tag, or none, gets the bytes.
    expect((await get(`/media/${listing.preview_key}`, { "If-None-Match": '"something-else"' })).status).toBe(200);
  });

  it("a private file's copy is private and kept no longer than its signed link works", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const response = await get(signedMediaUrl(listing.file_key, 600));
    expect(response.status).toBe(200);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(response.headers.get("Cache-Control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(590);
    expect(maxAge).toBeLessThanOrEqual(600);
    const tag = response.headers.get("ETag")!;
    expect((await get(signedMediaUrl(listing.file_key, 600), { "If-None-Match": `W/${tag}` })).status).toBe(304);
    // An expired link is refused, validator or not.
    expect((await get(signedMediaUrl(listing.file_key, -10), { "If-None-Match": tag })).status).toBe(403);
  });
});
