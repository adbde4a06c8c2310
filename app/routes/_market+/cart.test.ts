import { describe, expect, it } from "vitest";
import { action as cartAction } from "~/routes/_market+/cart";
import { callRoute, formRequest } from "#tests/setup/requests";

describe("POST /cart without JavaScript", () => {
  it("comes back to the same card (#listing-<id>), saying there that it was added (?added=<id>)", async () => {
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
    expect(response.headers.get("Location")).toBe(
      "/marketplace?style=anime&added=lst1#listing-lst1",
    );
  });

  it("says only the latest add, and a remove says none", async () => {
    const post = async (intent: string, listingId: string) =>
      (
        await callRoute(
          cartAction,
          formRequest("/cart", {
            intent,
            listingId,
            redirectTo: "/marketplace?added=lst1&q=neon",
            anchor: `listing-${listingId}`,
          }),
        )
      ).headers.get("Location");
    expect(await post("add", "lst2")).toBe("/marketplace?q=neon&added=lst2#listing-lst2");
    expect(await post("remove", "lst1")).toBe("/marketplace?q=neon#listing-lst1");
  });

  it("ignores an anchor that is not a card's, and then says nothing in the address", async () => {
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

describe("POST /cart with JavaScript (enhanced=1)", () => {
  it("answers whether the listing went in, for the button's 'Added — View cart'", async () => {
    const add = await callRoute(
      cartAction,
      formRequest("/cart", { intent: "add", listingId: "lst1", enhanced: "1" }),
    );
    expect(await add.json()).toEqual({ ok: true, count: 1, added: true, message: null });
    const remove = await callRoute(
      cartAction,
      formRequest("/cart", { intent: "remove", listingId: "lst1", enhanced: "1" }),
    );
    expect(await remove.json()).toMatchObject({ ok: true, added: false });
  });
});
