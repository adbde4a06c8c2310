// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { json } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { renderWithRemix } from "#tests/setup/render-route";
import { visibleText } from "#tests/setup/visible-text";
import { BuyerListsProvider } from "~/ui/buyer-lists";
import { SiteNav } from "~/ui/site-nav";
import { MAX_SAVED_LISTINGS, SAVED_LISTINGS_FULL } from "~/lib/limits";
import { ListingCard } from "~/features/market/catalog/components/listing-card";
import { NEON_LISTING } from "~/features/market/catalog/components/test-support";
import { serverHtml } from "#tests/setup/server-html";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

type Action = (args: { request: Request }) => Promise<Response>;

/**
 * The site as the root lays it out: the buyer's lists from the root loader
 * (here `lists`, which the stub actions change as the cookies would), the
 * header, and a page with Neon Dream's card. /cart and /saved are stub actions.
 */
function renderShop(
  options: {
    cart?: string[];
    saved?: string[];
    url?: string;
    cartAction?: Action;
    savedAction?: Action;
  } = {},
) {
  const lists = { cart: options.cart ?? [], saved: options.saved ?? [] };
  function Shell() {
    const data = useLoaderData<typeof lists>();
    return (
      <BuyerListsProvider cart={data.cart} saved={data.saved}>
        <SiteNav user={null} />
        <Outlet />
      </BuyerListsProvider>
    );
  }
  function Page() {
    const { inCart } = useLoaderData<{ inCart: boolean }>();
    return <ListingCard listing={NEON_LISTING} inCart={inCart} redirectTo="/marketplace" />;
  }
  renderWithRemix(
    [
      {
        id: "shell",
        path: "/",
        loader: () => json({ ...lists }),
        Component: Shell,
        children: [
          {
            path: "marketplace",
            // The page's own loader reads the cart too (as the marketplace's does).
            loader: () => json({ inCart: lists.cart.includes(NEON_LISTING.id) }),
            Component: Page,
          },
        ],
      },
      { path: "/cart", action: options.cartAction ?? (async () => json({ ok: true })) },
      { path: "/saved", action: options.savedAction ?? (async () => json({ ok: true })) },
    ],
    { url: options.url ?? "/marketplace" },
  );
  return lists;
}

/** The header, once the stub router has loaded the page. */
const header = async () => within(await screen.findByRole("banner"));

describe("the header's cart and saved listings", () => {
  it("links to the cart and the saved listings with their counts, named by what they show", async () => {
    renderShop({ cart: ["a", "b"], saved: ["c"] });
    const cart = (await header()).getByRole("link", { name: "Cart 2 items" });
    expect(cart).toHaveAttribute("href", "/cart");
    expect(within(cart).getByTestId("header-cart-count")).toHaveTextContent("2");
    const saved = (await header()).getByRole("link", { name: "Saved 1 listing" });
    expect(saved).toHaveAttribute("href", "/saved");
    // The words a voice user says are the visible ones, at the start of the name.
    expect(visibleText(cart)).toBe("Cart 2");
    expect(visibleText(saved)).toBe("Saved 1");
  });

  it("shows both at zero to a visitor with empty lists, signed out", async () => {
    renderShop();
    expect((await header()).getByRole("link", { name: "Cart 0 items" })).toBeInTheDocument();
    expect((await header()).getByRole("link", { name: "Saved 0 listings" })).toBeInTheDocument();
  });

  it("keeps its items whole on a phone: the bar's shortcuts and buttons never wrap, the name gives way with an ellipsis", async () => {
    renderShop();
    const cart = (await header()).getByRole("link", { name: "Cart 0 items" });
    expect(cart).toHaveClass("whitespace-nowrap", "shrink-0");
    // On a phone the cart is its icon and count; its word stays in its name.
    expect(within(cart).getByText("Cart")).toHaveClass("max-sm:sr-only", "lg:max-xl:sr-only");
    // Saved moves into the menu below 640 px.
    expect((await header()).getByTestId("header-saved")).toHaveClass("max-sm:hidden");
    expect((await header()).getByText("Selfie Studio")).toHaveClass("truncate");
    expect(screen.getByRole("navigation", { name: "Main" })).toHaveClass("wrap-normal");
  });
});

describe("Add to Cart's feedback", () => {
  it("with JavaScript: counts in the header at once, then says 'Added — View cart' under the button", async () => {
    let release: () => void = () => {};
    const cartAction = vi.fn(async ({ request }: { request: Request }) => {
      const form = await request.formData();
      await new Promise<void>((resolve) => (release = resolve));
      lists.cart.push(String(form.get("listingId")));
      return json({ ok: true, count: 1, added: true, message: null });
    });
    const lists = renderShop({ cartAction });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Add to Cart: Neon Dream" }));
    // Before the action has answered, the header counts it.
    await waitFor(() => expect(screen.getByTestId("header-cart-count")).toHaveTextContent("1"));
    expect(screen.queryByTestId("added-to-cart")).toBeNull();
    await act(async () => release());
    const added = await screen.findByTestId("added-to-cart");
    expect(added).toHaveTextContent("Added — View cart");
    expect(within(added).getByRole("link", { name: "View cart" })).toHaveAttribute("href", "/cart");
    // In the live region that was there before, so a screen reader hears it.
    expect(added.closest('[role="status"]')).not.toBeNull();
    expect(screen.getByTestId("header-cart-count")).toHaveTextContent("1");
    expect(
      screen.getByRole("button", { name: "Remove from Cart: Neon Dream" }),
    ).toBeInTheDocument();
  });

  it("with JavaScript: a full cart says so under the button, and the count goes back", async () => {
    const cartAction = vi.fn(async () =>
      json({ ok: false, count: 50, added: false, message: "Your cart holds at most 50 images." }),
    );
    renderShop({ cartAction });
    await userEvent
      .setup()
      .click(await screen.findByRole("button", { name: "Add to Cart: Neon Dream" }));
    expect(await screen.findByTestId("cart-refusal")).toHaveTextContent(
      "Your cart holds at most 50 images.",
    );
    expect(screen.queryByTestId("added-to-cart")).toBeNull();
    expect(screen.getByTestId("header-cart-count")).toHaveTextContent("0");
  });

  it("without JavaScript: the page the add came back to (?added=<id>, at the card) says it beside the item", async () => {
    renderShop({ cart: [NEON_LISTING.id], url: `/marketplace?added=${NEON_LISTING.id}` });
    const added = await screen.findByTestId("added-to-cart");
    expect(added).toHaveTextContent("Added — View cart");
    expect(added.closest('[data-testid="listing-card"]')).not.toBeNull();
    expect(screen.getByTestId("header-cart-count")).toHaveTextContent("1");
  });

  it("says nothing for another listing's ?added=, or once the listing left the cart", async () => {
    renderShop({ cart: [NEON_LISTING.id], url: "/marketplace?added=someone-else" });
    await screen.findByRole("button", { name: "Remove from Cart: Neon Dream" });
    expect(screen.queryByTestId("added-to-cart")).toBeNull();
    cleanup();
    renderShop({ cart: [], url: `/marketplace?added=${NEON_LISTING.id}` });
    await screen.findByRole("button", { name: "Add to Cart: Neon Dream" });
    expect(screen.queryByTestId("added-to-cart")).toBeNull();
  });
});

describe("the Save button", () => {
  it("with JavaScript: turns at once into Saved and Remove from saved (the same button, keeping focus), and the header counts it", async () => {
    let release: () => void = () => {};
    const savedAction = vi.fn(async ({ request }: { request: Request }) => {
      const form = await request.formData();
      expect(Object.fromEntries(form)).toMatchObject({
        intent: "save",
        listingId: NEON_LISTING.id,
        redirectTo: "/marketplace",
        anchor: `listing-${NEON_LISTING.id}`,
        enhanced: "1",
      });
      await new Promise<void>((resolve) => (release = resolve));
      lists.saved.unshift(NEON_LISTING.id);
      return json({ ok: true, saved: true, count: 1 });
    });
    const lists = renderShop({ savedAction });
    const user = userEvent.setup();
    const save = await screen.findByRole("button", { name: "Save: Neon Dream" });
    expect(visibleText(save)).toBe("Save");
    await user.click(save);
    // Before the action has answered.
    const remove = await screen.findByRole("button", { name: "Remove from saved: Neon Dream" });
    expect(remove).toBe(save);
    expect(remove).toHaveFocus();
    expect(screen.getByTestId("saved-mark")).toHaveTextContent("Saved");
    expect(screen.getByTestId("header-saved-count")).toHaveTextContent("1");
    await act(async () => release());
    await waitFor(() => expect(savedAction).toHaveBeenCalledTimes(1));
    expect(screen.getByRole("button", { name: "Remove from saved: Neon Dream" })).toBe(save);
    expect(screen.getByTestId("header-saved-count")).toHaveTextContent("1");
  });

  it("with JavaScript: removes, back to Save", async () => {
    const lists = renderShop({
      saved: [NEON_LISTING.id],
      savedAction: async () => {
        lists.saved.length = 0;
        return json({ ok: true, saved: false, count: 0 });
      },
    });
    await userEvent
      .setup()
      .click(await screen.findByRole("button", { name: "Remove from saved: Neon Dream" }));
    expect(await screen.findByRole("button", { name: "Save: Neon Dream" })).toBeInTheDocument();
    expect(screen.queryByTestId("saved-mark")).toBeNull();
    expect(screen.getByTestId("header-saved-count")).toHaveTextContent("0");
  });

  it(`with JavaScript: the ${MAX_SAVED_LISTINGS + 1}st says why and stays unsaved`, async () => {
    const full = Array.from({ length: MAX_SAVED_LISTINGS }, (_, i) => `other${i}`);
    renderShop({
      saved: full,
      savedAction: async () =>
        json({ ok: false, message: SAVED_LISTINGS_FULL.description }, { status: 409 }),
    });
    expect(await screen.findByTestId("header-saved-count")).toHaveTextContent("100");
    await userEvent.setup().click(screen.getByRole("button", { name: "Save: Neon Dream" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "You can save at most 100 listings. Remove one from your saved listings to save another.",
    );
    expect(screen.getByRole("button", { name: "Save: Neon Dream" })).toBeInTheDocument();
    expect(screen.getByTestId("header-saved-count")).toHaveTextContent("100");
  });

  it("without JavaScript: a plain form posting to /saved that comes back to the card", async () => {
    // As the server renders it: no effects, no hydration.
    const html = await serverHtml(
      <BuyerListsProvider cart={[]} saved={[NEON_LISTING.id]}>
        <ListingCard listing={NEON_LISTING} inCart={false} redirectTo="/marketplace?q=neon" />
      </BuyerListsProvider>,
      "/marketplace?q=neon",
    );
    const doc = new DOMParser().parseFromString(html, "text/html");
    const button = doc.querySelector('[data-testid="unsave-listing"]')!;
    const form = button.closest("form")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe("/saved");
    const field = (name: string) =>
      form.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value;
    expect(field("listingId")).toBe(NEON_LISTING.id);
    expect(field("redirectTo")).toBe("/marketplace?q=neon");
    expect(field("anchor")).toBe(`listing-${NEON_LISTING.id}`);
    expect(field("enhanced")).toBeUndefined();
    expect(button.getAttribute("name")).toBe("intent");
    expect(button.getAttribute("value")).toBe("remove");
    // The anchor is the card's title.
    expect(doc.getElementById(`listing-${NEON_LISTING.id}`)?.textContent).toContain("Neon Dream");
    expect(doc.querySelector('[data-testid="saved-mark"]')?.textContent).toBe("Saved");
  });
});
