import { describe, expect, it } from "vitest";
import { loader as downloadRoute } from "~/routes/_resources+/downloads.$token";
import { callRoute, makeRequest } from "#tests/setup/requests";

const TOKEN = "a".repeat(43);
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

describe("GET /downloads/{token} refused", () => {
  it("answers a browser 403 with a page that explains and links to the library", async () => {
    const response = await callRoute(
      downloadRoute,
      makeRequest(`/downloads/${TOKEN}`, { headers: { Accept: BROWSER_ACCEPT } }),
      { token: TOKEN },
    );
    expect(response.status).toBe(403);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain("This download link is not valid.");
    expect(html).toContain('<a href="/library">Go to your library</a>');
    expect(html).toContain("email you a fresh link");
  });

  it("keeps the JSON answer for other clients", async () => {
    const response = await callRoute(
      downloadRoute,
      makeRequest(`/downloads/${TOKEN}`, { headers: { Accept: "application/json" } }),
      { token: TOKEN },
    );
    expect(response.status).toBe(403);
    expect(response.headers.get("Content-Type")).toMatch(/json/);
    expect(await response.json()).toMatchObject({ message: "This download link is not valid." });
  });
});
