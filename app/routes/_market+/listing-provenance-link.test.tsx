import { describe, expect, it } from "vitest";
import ListingPage, { loader as listingLoader } from "~/routes/_market+/marketplace_.$listingId";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { serverRouteHtml } from "#tests/setup/server-html";

describe("the listing page", () => {
  it("links to the Content Credentials check beside its AI label, and its JSON-LD says the label, in the HTML the server sends", async () => {
    const { user } = await createTestUser();
    const { listing } = await createListing(user.id, { title: "Signed portrait" });
    const url = `/marketplace/${listing.id}`;
    const html = await serverRouteHtml(
      {
        path: "/marketplace/:listingId",
        loader: () => callRoute(listingLoader, makeRequest(url), { listingId: listing.id }),
        element: <ListingPage />,
      },
      url,
      { withoutTextMarkers: true },
    );
    const meaning = /<dd[^>]*data-testid="ai-label-meaning"[^>]*>([\s\S]*?)<\/dd>/.exec(html)?.[1];
    expect(meaning).toMatch(/^AI-edited: /);
    expect(meaning).toMatch(
      /<a[^>]*href="\/provenance"[^>]*>Check a file&#x27;s Content Credentials<\/a>/,
    );
    // Search engines read the same label from the page's structured data.
    const jsonLd = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(jsonLd!)).toMatchObject({
      "@type": "Product",
      additionalProperty: {
        "@type": "PropertyValue",
        name: "AI disclosure",
        value: "AI-edited",
        description: expect.stringContaining("edited with automated tools"),
      },
    });
  });
});
