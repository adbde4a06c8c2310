// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { json } from "@remix-run/node";
import { renderWithRemix } from "#tests/setup/render-route";
import { BuyerListsProvider } from "~/ui/buyer-lists";
import { SavedList } from "~/features/market/saved/components/saved-list";
import type { SavedListing } from "~/features/market/saved/types";

afterEach(cleanup);

const NEON: SavedListing = {
  id: "lst1",
  available: true,
  title: "Neon Dream",
  style: "anime",
  priceCents: 2500,
  previewUrl: "/media/previews/abcdefgh.jpg",
  creatorFirstName: "Ada",
  width: 2048,
  height: 2560,
};
const GONE: SavedListing = { id: "lst2", available: false };
const CITY: SavedListing = { ...NEON, id: "lst3", title: "City Lights", priceCents: 4000 };

function renderList(
  listings: SavedListing[],
  options: { cart?: string[]; savedAction?: () => Promise<Response> } = {},
) {
  renderWithRemix(
    [
      {
        path: "/saved",
        action: options.savedAction ?? (async () => json({ ok: true })),
        Component: () => (
          <BuyerListsProvider cart={options.cart ?? []} saved={listings.map((item) => item.id)}>
            <SavedList listings={listings} />
          </BuyerListsProvider>
        ),
      },
      { path: "/cart", action: async () => json({ ok: true }) },
    ],
    { url: "/saved" },
  );
}

describe("/saved's list", () => {
  it("shows each listing for sale with its price now, and one that left the marketplace marked, with nothing of it", async () => {
    renderList([NEON, GONE, CITY], { cart: ["lst3"] });
    const rows = await screen.findAllByTestId("saved-listing");
    expect(rows).toHaveLength(3);
    expect(screen.getByTestId("saved-count")).toHaveTextContent("3 of 100");

    const [neon, gone, city] = rows;
    expect(neon).toHaveAttribute("id", "listing-lst1");
    expect(within(neon).getByRole("link", { name: "Neon Dream" })).toHaveAttribute(
      "href",
      "/marketplace/lst1",
    );
    expect(within(neon).getByTestId("saved-price")).toHaveTextContent("$25.00");
    expect(neon).toHaveTextContent("by Ada");
    expect(within(neon).getByRole("button", { name: "Add to Cart: Neon Dream" })).toBeVisible();
    expect(
      within(neon).getByRole("button", { name: "Remove from saved: Neon Dream" }),
    ).toBeVisible();
    // The saved page's own rows need no "Saved" mark.
    expect(within(neon).queryByTestId("saved-mark")).toBeNull();

    expect(within(gone).getByTestId("saved-unavailable")).toHaveTextContent("No longer available");
    expect(within(gone).queryByRole("img")).toBeNull();
    expect(within(gone).queryByRole("link")).toBeNull();
    expect(within(gone).queryByRole("button", { name: /Add to Cart/ })).toBeNull();
    expect(
      within(gone).getByRole("button", {
        name: "Remove from saved: a listing no longer available",
      }),
    ).toBeVisible();

    expect(
      within(city).getByRole("button", { name: "Remove from Cart: City Lights" }),
    ).toBeVisible();
    expect(within(city).getByTestId("saved-price")).toHaveTextContent("$40.00");
  });

  it("without JavaScript, Add to Cart comes back to its row and Remove to the row after it (before it, for the last)", async () => {
    renderList([NEON, GONE, CITY]);
    const rows = await screen.findAllByTestId("saved-listing");
    const field = (button: HTMLElement, name: string) =>
      button.closest("form")!.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value;
    const add = within(rows[0]).getByRole("button", { name: "Add to Cart: Neon Dream" });
    expect(field(add, "anchor")).toBe("listing-lst1");
    expect(field(add, "redirectTo")).toBe("/saved");
    const removes = screen.getAllByRole("button", { name: /^Remove from saved/ });
    expect(removes.map((button) => field(button, "anchor"))).toEqual([
      "listing-lst2",
      "listing-lst3",
      "listing-lst2",
    ]);
    expect(removes.map((button) => field(button, "redirectTo"))).toEqual([
      "/saved",
      "/saved",
      "/saved",
    ]);
  });

  it("with JavaScript, a removed row leaves at once", async () => {
    let release: () => void = () => {};
    const savedAction = vi.fn(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return json({ ok: true, saved: false, count: 1 });
    });
    renderList([NEON, GONE], { savedAction });
    await userEvent.setup().click(
      await screen.findByRole("button", {
        name: "Remove from saved: a listing no longer available",
      }),
    );
    // Before the action has answered.
    await waitFor(() =>
      expect(screen.getAllByTestId("saved-listing").filter((row) => !row.hidden)).toHaveLength(1),
    );
    expect(screen.getByTestId("saved-count")).toHaveTextContent("1 of 100");
    expect(savedAction).toHaveBeenCalledTimes(1);
    await act(async () => release());
  });

  it("says how to save when nothing is saved", async () => {
    renderList([]);
    const empty = await screen.findByTestId("saved-empty");
    expect(empty).toHaveTextContent("You have not saved any listings yet.");
    expect(within(empty).getByRole("link", { name: "Browse the marketplace" })).toHaveAttribute(
      "href",
      "/marketplace",
    );
  });
});
