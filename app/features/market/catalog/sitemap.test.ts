import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { withdrawListing } from "~/features/market/catalog/listings.server";
import {
  clearSitemapCache,
  PUBLIC_PAGES,
  SITEMAP_PART_SIZE,
  sitemapIndexXml,
  sitemapPartPath,
  sitemapParts,
  sitemapPartXml,
} from "~/features/market/catalog/sitemap.server";
import { loader as sitemapLoader } from "~/routes/_resources+/sitemap[.]xml";
import { loader as partLoader } from "~/routes/_resources+/sitemaps.$kind.$part";
import { loader as robotsLoader } from "~/routes/_resources+/robots[.]txt";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { updateWhere } from "#tests/setup/update-where";

const ORIGIN = "http://localhost:3000";
/** The protocol's limits (sitemaps.org): per file at most 50,000 URLs and 50 MB uncompressed. */
const MAX_URLS = 50_000;
const MAX_BYTES = 50 * 1024 * 1024;

/** The <loc>s of a sitemap file, checked against the protocol's rules. */
function locsOf(xml: string, root: "urlset" | "sitemapindex"): string[] {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  expect(xml).toContain(`<${root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`);
  expect(Buffer.byteLength(xml)).toBeLessThanOrEqual(MAX_BYTES);
  const entries = [
    ...xml.matchAll(root === "urlset" ? /<url>(.*?)<\/url>/g : /<sitemap>(.*?)<\/sitemap>/g),
  ].map((m) => m[1]);
  expect(entries.length).toBeLessThanOrEqual(MAX_URLS);
  const locs = entries.map((entry) => {
    const loc = /<loc>([^<]+)<\/loc>/.exec(entry)?.[1] ?? "";
    // Absolute, on the site's origin, and no raw ampersand.
    expect(new URL(loc.replace(/&amp;/g, "&")).origin).toBe(ORIGIN);
    expect(loc).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;|#\d+;)/);
    if (root === "urlset")
      expect(entry).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?<\/lastmod>/);
    return loc;
  });
  return locs;
}

/** Every URL the whole sitemap lists (index, then each part through its route). */
async function everyUrl(partSize?: number): Promise<string[]> {
  const parts = await sitemapParts(getDb(), partSize);
  const index = locsOf(sitemapIndexXml(ORIGIN, parts), "sitemapindex");
  expect(index).toEqual(parts.map((part) => ORIGIN + sitemapPartPath(part)));
  const urls: string[] = [];
  for (const part of parts) {
    const xml = await sitemapPartXml(getDb(), ORIGIN, part.kind, part.start, partSize);
    expect(xml).not.toBeNull();
    const locs = locsOf(xml!, "urlset");
    if (partSize && part.kind !== "pages") expect(locs.length).toBeLessThanOrEqual(partSize);
    urls.push(...locs);
  }
  return urls;
}

beforeEach(() => clearSitemapCache());

describe("the sitemap", () => {
  it("lists exactly the public pages, the live listings and the storefronts; a withdrawn listing and a banned creator drop out", async () => {
    const ada = await createTestUser({ firstName: "Ada" });
    const bob = await createTestUser({ firstName: "Bob" });
    const noHandle = await createTestUser({ firstName: "Cy" });
    await updateWhere("users", { handle: "ada-map" }, "id", ada.user.id);
    await updateWhere("users", { handle: "bob-map" }, "id", bob.user.id);
    const a1 = (await createListing(ada.user.id)).listing;
    const a2 = (await createListing(ada.user.id)).listing;
    const b1 = (await createListing(bob.user.id)).listing;
    const c1 = (await createListing(noHandle.user.id)).listing;
    const pages = PUBLIC_PAGES.map((page) => ORIGIN + page.path);
    const listingUrl = (id: string) => `${ORIGIN}/marketplace/${id}`;

    expect(new Set(await everyUrl())).toEqual(
      new Set([
        ...pages,
        ...[a1, a2, b1, c1].map((l) => listingUrl(l.id)),
        `${ORIGIN}/creators/ada-map`,
        `${ORIGIN}/creators/bob-map`,
      ]),
    );
    // Parts of two: the same URLs, more parts, none over its size.
    expect(new Set(await everyUrl(2))).toEqual(new Set(await everyUrl()));
    expect((await sitemapParts(getDb(), 2)).length).toBeGreaterThan(
      (await sitemapParts(getDb())).length,
    );

    await withdrawListing(getDb(), {
      userId: ada.user.id,
      listingId: a2.id,
      now: new Date(),
      store: getFileStore(),
    });
    await updateWhere("users", { banned: 1 }, "id", bob.user.id);
    const after = await everyUrl(2);
    expect(new Set(after)).toEqual(
      new Set([...pages, listingUrl(a1.id), listingUrl(c1.id), `${ORIGIN}/creators/ada-map`]),
    );
    expect(after).toHaveLength(new Set(after).size);
  });

  it("serves the index and its parts as XML, and 404 for a part it does not name", async () => {
    const ada = await createTestUser();
    await createListing(ada.user.id);
    const index = await callRoute(sitemapLoader, makeRequest("/sitemap.xml"));
    expect(index.status).toBe(200);
    expect(index.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
    expect(index.headers.get("Cache-Control")).toBe("public, max-age=300");
    const locs = locsOf(await index.text(), "sitemapindex");
    expect(locs.length).toBeGreaterThanOrEqual(2);
    for (const loc of locs) {
      const [, kind, part] = new URL(loc).pathname.split("/").slice(1);
      const response = await callRoute(partLoader, makeRequest(new URL(loc).pathname), {
        kind,
        part,
      });
      expect(response.status).toBe(200);
      locsOf(await response.text(), "urlset");
    }
    for (const [kind, part] of [
      ["listings", "zzzz.xml"],
      ["nope", "start.xml"],
      ["pages", "x.xml"],
      ["listings", "start"],
      ["listings", "<x>.xml"],
    ]) {
      const response = await callRoute(
        partLoader,
        makeRequest(`/sitemaps/${kind}/${encodeURIComponent(part)}`),
        { kind, part },
      );
      expect(response.status, `${kind}/${part}`).toBe(404);
      expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    }
    expect(SITEMAP_PART_SIZE).toBeLessThanOrEqual(MAX_URLS);
  });
});

describe("/robots.txt", () => {
  it("allows the public pages, disallows the private areas and names the sitemap", async () => {
    const response = await callRoute(robotsLoader, makeRequest("/robots.txt"));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    const lines = (await response.text()).split("\n");
    expect(lines).toContain("User-agent: *");
    expect(lines).toContain("Allow: /");
    for (const path of [
      "/api/",
      "/dashboard",
      "/admin",
      "/settings",
      "/downloads/",
      "/library",
      "/licenses/",
    ]) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    // Nothing public is disallowed.
    const disallowed = lines
      .filter((line) => line.startsWith("Disallow: "))
      .map((line) => line.slice(10));
    for (const page of [
      ...PUBLIC_PAGES.map((p) => p.path).filter((p) => p !== "/"),
      "/marketplace/abc",
      "/creators/ada",
    ]) {
      expect(
        disallowed.some((prefix) => page.startsWith(prefix)),
        page,
      ).toBe(false);
    }
  });
});
