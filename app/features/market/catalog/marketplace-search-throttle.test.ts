import { describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { limitOf, SEARCH_RATE_LIMIT } from "~/infra/rate-limit.server";
import { loader as marketplacePage } from "~/routes/_market+/marketplace";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";

const { loader: marketplaceApi } = apiRoute("/api/marketplace");

const api = (path: string, clientIp: string) =>
  callRoute(marketplaceApi, makeRequest(path), {}, { ties: testTies, clientIp, nonce: "test" });
const page = (path: string, clientIp: string) =>
  callRoute(marketplacePage, makeRequest(path), {}, { ties: testTies, clientIp, nonce: "test" });

describe("the search throttle", () => {
  it("lets one address search SEARCHES_PER_ADDRESS times a minute over the API and the page, then answers 429 with Retry-After", async () => {
    const { user } = await createTestUser();
    await createListing(user.id, { title: "Throttled lantern" });
    const limit = limitOf(SEARCH_RATE_LIMIT, getConfig());
    expect(limit).toBe(60);

    // The screen and the API count together (pages of a search too).
    for (let i = 0; i < limit; i++) {
      const response =
        i % 2
          ? await api(`/api/marketplace?q=lantern${i % 3 ? "" : "&limit=5"}`, "198.51.100.30")
          : await page("/marketplace?q=lantern", "198.51.100.30");
      expect(response.status, `search ${i + 1}`).toBe(200);
    }

    const refused = await api("/api/marketplace?q=lantern", "198.51.100.30");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = await refused.json();
    expect(body.message).toMatch(
      /^Too many searches from your network\. Try again in \d+ (seconds?|minutes?)\.$/,
    );

    // The page: the same 429 and message for its error panel, not a 500.
    const screen = await page("/marketplace?q=lantern", "198.51.100.30");
    expect(screen.status).toBe(429);
    expect(Number(screen.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await screen.json()).message).toMatch(/^Too many searches from your network\./);

    // Browsing without a search is not throttled; another address has its own count.
    expect((await api("/api/marketplace", "198.51.100.30")).status).toBe(200);
    expect((await page("/marketplace?style=anime", "198.51.100.30")).status).toBe(200);
    const other = await api("/api/marketplace?q=lantern", "198.51.100.31");
    expect(other.status).toBe(200);
    expect((await other.json()).items.map((item: { title: string }) => item.title)).toEqual([
      "Throttled lantern",
    ]);
  });
});
