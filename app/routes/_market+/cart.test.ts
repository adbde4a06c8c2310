import { describe, expect, it } from "vitest";
import { action as cartAction } from "~/routes/_market+/cart";
import { callRoute, formRequest } from "#tests/setup/requests";

describe("POST /cart without JavaScript", () => {
  it("comes back to the same card (#listing-<id>)", async () => {
    const response = await callRoute(
      cartAction,
      formRequest("/cart", {
        intent: "add",
        listingId: "lst1",
        redirectTo: "/marketplace?style=anime",
        anchor: "listing-lst1",
      }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/marketplace?style=anime#listing-lst1");
  });

  it("ignores an anchor that is not a card's", async () => {
    const response = await callRoute(
      cartAction,
      formRequest("/cart", {
        intent: "add",
        listingId: "lst1",
        redirectTo: "/marketplace",
        anchor: 'x"><script>',
      }),
    );
    expect(response.headers.get("Location")).toBe("/marketplace");
  });
});
