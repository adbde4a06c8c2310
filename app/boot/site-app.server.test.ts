import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { makeRequest } from "#tests/setup/requests";
import { cachedMarketplacePage, flushedViewCount } from "#tests/setup/marketplace-views";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { replayMarketplaceViews } from "./site-app.server";
import { testTies } from "#tests/setup/ties";
import { visitOfRequest } from "~/web/visitor-page-cache.server";

describe("a marketplace page served from the visitors' cache", () => {
  it("counts the views of each visitor it is served to, once a day, as a rendered page would", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { title: "Seen" });
    // The views noted, written as the next batch would.
    const views = () => flushedViewCount(listing.id);
    // The marketplace route's loader, answering as the page would, behind the real cache.
    const page = cachedMarketplacePage();
    const visit = async (userAgent: string, clientIp: string, referer?: string) => {
      const context: AppLoadContext = { clientIp, nonce: "n", ties: testTies };
      const headers: Record<string, string> = {
        "User-Agent": userAgent,
        ...(referer ? { Referer: referer } : {}),
      };
      return (await page(makeRequest("/marketplace", { headers }), context)).text();
    };

    const rendered = await visit("Browser A", "203.0.113.1");
    expect(rendered).toContain(listing.id);
    expect(await views()).toBe(1);

    // Served from the copy: a second visitor counts, the same visitor again does not, a revalidation does not.
    expect(await visit("Browser B", "203.0.113.2")).toBe(rendered);
    expect(await views()).toBe(2);
    await visit("Browser B", "203.0.113.2");
    expect(await views()).toBe(2);
    await visit("Browser C", "203.0.113.3", "http://localhost:3000/marketplace");
    expect(await views()).toBe(2);
    await visit("Browser C", "203.0.113.3", "http://localhost:3000/landing");
    expect(await views()).toBe(3);
    expect(page.size).toBe(1);
  });

  it("ignores notes without listings", async () => {
    await expect(
      replayMarketplaceViews({}, visitOfRequest(makeRequest("/marketplace")), {
        ties: testTies,
        clientIp: "203.0.113.1",
      }),
    ).resolves.toBeUndefined();
  });
});
