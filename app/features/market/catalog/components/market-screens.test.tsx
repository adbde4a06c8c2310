// @vitest-environment jsdom
import { formatMoney } from "~/lib/money";
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { json } from "@remix-run/node";
import { useLocation } from "@remix-run/react";
import Marketplace from "~/routes/_market+/marketplace";
import ListingPage from "~/routes/_market+/marketplace_.$listingId";
import PaymentMonitor from "~/routes/_market+/payment-monitor";
import TestCheckout from "~/routes/_market+/test-checkout.$sessionId";
import { ToastProvider } from "~/ui/toaster";
import { DemoFiguresProvider } from "~/ui/demo-figures";
import { clientValidationLoaded } from "#tests/setup/client-validation";
import { visibleText } from "#tests/setup/visible-text";
import { PaymentStatusCard } from "~/features/market/checkout/components/payment-monitor-cards";
import { NEON_LISTING, paymentResult } from "~/features/market/catalog/components/test-support";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const LISTING = NEON_LISTING;

function marketplaceData(overrides: Record<string, unknown> = {}) {
  return {
    page: { items: [LISTING], nextCursor: null },
    ratings: {} as Record<string, { average: number; count: number }>,
    cart: [] as unknown[],
    filters: { style: "", q: "", listing: "", cursor: "" },
    baseQuery: "",
    redirectTo: "/marketplace",
    returned: false,
    purchase: null,
    cancelled: false,
    ...overrides,
  };
}

function Where() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname + location.search}</p>;
}

type CartAction = (args: { request: Request }) => Promise<Response>;

function renderMarketplace(
  data: ReturnType<typeof marketplaceData>,
  url = "/marketplace",
  cartAction: CartAction = vi.fn(async () => json({ ok: true })),
  demoFigures = false,
) {
  let current = data;
  renderWithRemix(
    [
      {
        path: "/marketplace",
        Component: () => (
          <DemoFiguresProvider on={demoFigures}>
            <ToastProvider flash={null}>
              <Marketplace />
              <Where />
            </ToastProvider>
          </DemoFiguresProvider>
        ),
        loader: () => json(current),
      },
      { path: "/cart", action: cartAction },
    ],
    { url: url },
  );
  return { setData: (next: ReturnType<typeof marketplaceData>) => (current = next), cartAction };
}

/** The checkout dialog is loaded on first use: on a busy machine its module takes more than findBy's default second. */
const LAZY_DIALOG = { timeout: 10_000 };

describe("/marketplace", () => {
  it("shows cards with the watermarked preview, creator's first name, price and, with DEMO_FIGURES on, a labelled rating", async () => {
    renderMarketplace(marketplaceData(), "/marketplace", undefined, true);
    const card = await screen.findByTestId("listing-card");
    expect(within(card).getByRole("img")).toHaveAttribute("src", LISTING.previewUrl);
    expect(card).toHaveTextContent("Neon Dream");
    expect(card).toHaveTextContent("by Ada");
    expect(within(card).getByTestId("card-creator").tagName).toBe("BDI");
    expect(card).toHaveTextContent("$25.00");
    // How it was made, as text, with what that means on hover.
    expect(within(card).getByTestId("ai-label")).toHaveTextContent("AI-edited");
    expect(within(card).getByTestId("ai-label")).toHaveAttribute(
      "title",
      "The creator's photo, edited with automated tools: cut out, restyled and composed.",
    );
    // No buyer has rated it: the stars are the illustrative ones, and say so beside them.
    expect(within(card).getByTestId("illustrative-rating")).toHaveTextContent(
      /Rated [45]\.\d out of 5Illustrative$/,
    );
    expect(within(card).queryByTestId("buyer-rating")).toBeNull();
    expect(within(card).queryByTestId("no-ratings")).toBeNull();
    expect(screen.getByLabelText("Style")).toBeInTheDocument();
    expect(screen.getByLabelText("Search")).toBeInTheDocument();
  });

  it("with DEMO_FIGURES off (a live store), says No ratings yet instead of inventing stars", async () => {
    renderMarketplace(marketplaceData());
    const card = await screen.findByTestId("listing-card");
    expect(within(card).getByTestId("no-ratings")).toHaveTextContent("No ratings yet");
    expect(within(card).queryByTestId("illustrative-rating")).toBeNull();
    expect(within(card).queryByTestId("rating")).toBeNull();
    expect(within(card).queryByTestId("illustrative")).toBeNull();
  });

  it("shows the buyers' average and count in place of the illustrative stars once a listing has ratings", async () => {
    renderMarketplace(marketplaceData({ ratings: { [LISTING.id]: { average: 3.5, count: 2 } } }));
    const card = await screen.findByTestId("listing-card");
    expect(within(card).getByTestId("buyer-rating")).toHaveTextContent(
      "Rated 3.5 out of 5(2 ratings)",
    );
    expect(within(card).queryByTestId("illustrative-rating")).toBeNull();
    expect(within(card).queryByTestId("illustrative")).toBeNull();
  });

  it("shows the pixel size of each file a buyer gets, on its card and in the cart", async () => {
    const sized = { ...LISTING, width: 2048, height: 2560 };
    renderMarketplace(
      marketplaceData({
        page: { items: [sized], nextCursor: null },
        cart: [{ ...sized, creatorFirstName: "Ada" }],
      }),
    );
    const card = await screen.findByTestId("listing-card");
    expect(within(card).getByTestId("pixel-size")).toHaveTextContent("2,048 × 2,560 px (5.2 MP)");
    const line = await screen.findByTestId("cart-line");
    expect(within(line).getByTestId("pixel-size")).toHaveTextContent("2,048 × 2,560 px (5.2 MP)");
  });

  it("draws a cart line's thumbnail from the small variants, at the 48 px it is shown", async () => {
    renderMarketplace(marketplaceData({ cart: [{ ...LISTING, creatorFirstName: "Ada" }] }));
    const line = await screen.findByTestId("cart-line");
    const picture = line.querySelector("picture");
    expect(picture).not.toBeNull();
    const avif = picture?.querySelector('source[type="image/avif"]');
    expect(avif).toHaveAttribute("sizes", "48px");
    expect(avif?.getAttribute("srcset")).toContain(`${LISTING.previewUrl}?w=320&fmt=avif 320w`);
    const img = picture?.querySelector("img");
    expect(img).toHaveAttribute("width", "48");
    expect(img).toHaveAttribute("height", "48");
    expect(img).toHaveAttribute("loading", "lazy");
  });

  it("shows no pixel size when it is not known", async () => {
    renderMarketplace(marketplaceData());
    const card = await screen.findByTestId("listing-card");
    expect(within(card).queryByTestId("pixel-size")).toBeNull();
  });

  it("loads the first card's image at once with high priority, and the others when scrolled to", async () => {
    renderMarketplace(
      marketplaceData({
        page: { items: [LISTING, { ...LISTING, id: "lst2", title: "Second" }], nextCursor: null },
      }),
    );
    const [first, second] = await screen.findAllByTestId("listing-card");
    const firstImage = within(first).getByRole("img");
    expect(firstImage).toHaveAttribute("loading", "eager");
    expect(firstImage).toHaveAttribute("fetchpriority", "high");
    expect(firstImage).toHaveAttribute("width", "640");
    expect(within(second).getByRole("img")).toHaveAttribute("loading", "lazy");
    expect(within(second).getByRole("img")).not.toHaveAttribute("fetchpriority");
  });

  it("offers each preview as AVIF and WebP, with a JPEG fallback, at the widths the grid shows it", async () => {
    renderMarketplace(
      marketplaceData({ page: { items: [{ ...LISTING, previewWidth: 480 }], nextCursor: null } }),
    );
    const card = await screen.findByTestId("listing-card");
    const image = within(card).getByRole("img");
    const picture = image.parentElement!;
    expect(picture.tagName).toBe("PICTURE");
    const [avif, webp] = [...picture.querySelectorAll("source")];
    expect(avif).toHaveAttribute("type", "image/avif");
    expect(avif).toHaveAttribute(
      "srcset",
      "/media/previews/abcdefgh.jpg?w=320&fmt=avif 320w, /media/previews/abcdefgh.jpg?w=480&fmt=avif 480w",
    );
    expect(webp).toHaveAttribute("type", "image/webp");
    expect(webp.getAttribute("srcset")).toContain("?w=480&fmt=webp 480w");
    expect(image).toHaveAttribute(
      "srcset",
      "/media/previews/abcdefgh.jpg?w=320&fmt=jpg 320w, /media/previews/abcdefgh.jpg 480w",
    );
    for (const element of [avif, webp, image]) {
      expect(element.getAttribute("sizes")).toMatch(
        /^\(min-width: 1280px\) 291px, .*calc\(100vw - 32px\)$/,
      );
    }
    expect(image).toHaveAttribute("width", "640");
    expect(image).toHaveAttribute("height", "640");
  });

  it("adds to the cart at once (optimistic) through the /cart form", async () => {
    let release: () => void = () => {};
    const cartAction = vi.fn(async ({ request }: { request: Request }) => {
      const form = await request.formData();
      expect(form.get("intent")).toBe("add");
      expect(form.get("listingId")).toBe("lst1");
      expect(form.get("enhanced")).toBe("1");
      await new Promise<void>((resolve) => (release = resolve));
      return json({ ok: true });
    });
    const { setData } = renderMarketplace(marketplaceData(), "/marketplace", cartAction);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Add to Cart: Neon Dream" }));
    // Before the action has answered, the cart already shows the image.
    await waitFor(() => expect(screen.getByTestId("cart-count")).toHaveTextContent("1 item"));
    expect(screen.getByTestId("cart-total")).toHaveTextContent("$25.00");
    setData(marketplaceData({ cart: [{ ...LISTING, creatorFirstName: "Ada" }] }));
    await act(async () => release());
    await waitFor(() =>
      expect(
        screen.getByRole("button", { name: "Remove from Cart: Neon Dream" }),
      ).toBeInTheDocument(),
    );
    expect(screen.getByRole("button", { name: "Remove: Neon Dream" })).toBeInTheDocument();
    expect(cartAction).toHaveBeenCalledTimes(1);
  });

  it("names each cart button by its visible label first, then the image (axe label-content-name-mismatch)", async () => {
    renderMarketplace(marketplaceData({ cart: [{ ...LISTING, creatorFirstName: "Ada" }] }));
    const card = await screen.findByRole("button", { name: "Remove from Cart: Neon Dream" });
    expect(visibleText(card)).toBe("Remove from Cart");
    const line = screen.getByRole("button", { name: "Remove: Neon Dream" });
    expect(visibleText(line)).toBe("Remove");
    for (const button of [card, line]) expect(button).not.toHaveAttribute("aria-label");
    cleanup();
    renderMarketplace(marketplaceData());
    const add = await screen.findByRole("button", { name: "Add to Cart: Neon Dream" });
    expect(visibleText(add)).toBe("Add to Cart");
    expect(add).not.toHaveAttribute("aria-label");
  });

  it("shows the cart's count at the top of the page, linking to the cart (and its Checkout)", async () => {
    const { setData } = renderMarketplace(marketplaceData(), "/marketplace", async () => {
      setData(marketplaceData({ cart: [{ ...LISTING, creatorFirstName: "Ada" }] }));
      return json({ ok: true });
    });
    const jump = await screen.findByRole("link", { name: "Cart 0 items" });
    expect(jump).toHaveAttribute("href", "#cart");
    expect(screen.getByTestId("cart")).toHaveAttribute("id", "cart");
    await userEvent.setup().click(screen.getByRole("button", { name: "Add to Cart: Neon Dream" }));
    await waitFor(() => expect(screen.getByTestId("cart-badge")).toHaveTextContent("1"));
    expect(screen.getByRole("link", { name: "Cart 1 item" })).toBeInTheDocument();
  });

  it("shows each cart line's price beside a small Remove, and wraps long titles", async () => {
    const long = {
      ...LISTING,
      title: "Astronaut portrait in a very long title that must wrap",
      creatorFirstName: "Ada",
    };
    renderMarketplace(marketplaceData({ cart: [long] }));
    const line = await screen.findByTestId("cart-line");
    expect(within(line).getByTestId("cart-line-price")).toHaveTextContent("$25.00");
    const remove = within(line).getByRole("button", { name: `Remove: ${long.title}` });
    expect(visibleText(remove)).toBe("Remove");
    expect(within(line).getByText(long.title)).not.toHaveClass("truncate");
  });

  it("applies a new style at once with JavaScript (Apply stays for pages without it)", async () => {
    renderMarketplace(marketplaceData());
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText("Style"), "anime");
    await waitFor(() =>
      expect(screen.getByTestId("location")).toHaveTextContent("/marketplace?style=anime&q="),
    );
    expect(screen.getByRole("button", { name: "Apply" })).toBeInTheDocument();
  });

  it("without JavaScript, a card's cart form asks to come back to that card", async () => {
    renderMarketplace(marketplaceData());
    const button = await screen.findByRole("button", { name: "Add to Cart: Neon Dream" });
    const form = button.closest("form")!;
    expect(form.querySelector('input[name="anchor"]')).toHaveValue("listing-lst1");
    expect(document.getElementById("listing-lst1")).toHaveTextContent("Neon Dream");
  });

  it("shows in the checkout dialog what is being bought: each image's thumbnail, title and price", async () => {
    renderMarketplace(marketplaceData({ cart: [{ ...LISTING, creatorFirstName: "Ada" }] }));
    await userEvent.setup().click(await screen.findByTestId("checkout-button"));
    const dialog = await screen.findByRole("dialog", { name: "Checkout" }, LAZY_DIALOG);
    const lines = within(dialog).getByRole("list", { name: "Images in this order" });
    const [line] = within(lines).getAllByRole("listitem");
    expect(line).toHaveTextContent(LISTING.title);
    expect(line).toHaveTextContent(formatMoney(LISTING.priceCents));
    expect(line.querySelector("img")).not.toBeNull();
  });

  it("puts the first focus of the checkout dialog in the Name field", async () => {
    renderMarketplace(marketplaceData({ cart: [{ ...LISTING, creatorFirstName: "Ada" }] }));
    await userEvent.setup().click(await screen.findByTestId("checkout-button"));
    const dialog = await screen.findByRole("dialog", { name: "Checkout" }, LAZY_DIALOG);
    await waitFor(() => expect(within(dialog).getByLabelText("Name")).toHaveFocus());
  });

  it("opens the checkout dialog and asks for name and email ('Missing Information')", async () => {
    renderMarketplace(marketplaceData({ cart: [{ ...LISTING, creatorFirstName: "Ada" }] }));
    const user = userEvent.setup();
    await user.click(await screen.findByTestId("checkout-button"));
    const dialog = await screen.findByRole("dialog", { name: "Checkout" }, LAZY_DIALOG);
    expect(within(dialog).getByLabelText("Name")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Email")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Company (optional)")).toBeInTheDocument();
    await clientValidationLoaded();
    await user.click(within(dialog).getByRole("button", { name: "Proceed to Payment" }));
    expect(await screen.findAllByText("Missing Information")).not.toHaveLength(0);
    expect(
      screen.getAllByText("Please fill in your name and email address.").length,
    ).toBeGreaterThan(0);
    // With JavaScript the toast is the one summary beside the field errors (the box is for pages without it).
    expect(screen.getByTestId("toast")).toHaveTextContent("Missing Information");
    expect(within(dialog).queryByTestId("missing-information")).toBeNull();
  });

  it("says the email is wrong, not missing, when name and email are typed but the email is not one", async () => {
    renderMarketplace(marketplaceData({ cart: [{ ...LISTING, creatorFirstName: "Ada" }] }));
    const user = userEvent.setup();
    await user.click(await screen.findByTestId("checkout-button"));
    const dialog = await screen.findByRole("dialog", { name: "Checkout" }, LAZY_DIALOG);
    await clientValidationLoaded();
    await user.type(within(dialog).getByLabelText("Name"), "Bea Buyer");
    await user.type(within(dialog).getByLabelText("Email"), "bea-at-example");
    await user.click(within(dialog).getByRole("button", { name: "Proceed to Payment" }));
    const toast = await screen.findByTestId("toast");
    expect(toast).toHaveTextContent("Check Your Details");
    expect(toast).toHaveTextContent("Please enter a valid email address.");
    expect(toast).not.toHaveTextContent("Missing Information");
  });

  it("while the payment is confirmed, offers to check again at the same return address, not the Payment Monitor", async () => {
    renderMarketplace(
      marketplaceData({
        returned: true,
        purchase: {
          success: false,
          paymentStatus: "processing",
          customerEmail: "bea.buyer@example.com",
          customerName: "Bea Buyer",
          sessionId: "cs_test_125",
          licenseUrl: null,
          testMode: false,
          downloads: [],
        },
      }),
      "/marketplace?session_id=cs_test_125&success=true",
    );
    const dialog = await screen.findByRole("dialog", { name: "Payment Processing" }, LAZY_DIALOG);
    expect(within(dialog).getByRole("link", { name: "Check again" })).toHaveAttribute(
      "href",
      "/marketplace?session_id=cs_test_125&success=true",
    );
    expect(within(dialog).queryByRole("link", { name: /Payment Monitor/ })).toBeNull();
  });

  it("greets the buyer by their address only when they gave no name", async () => {
    renderMarketplace(
      marketplaceData({
        returned: true,
        purchase: {
          success: true,
          paymentStatus: "completed",
          customerEmail: "bea.buyer@example.com",
          customerName: null,
          sessionId: "cs_test_124",
          licenseUrl: null,
          testMode: false,
          downloads: [],
        },
      }),
      "/marketplace?session_id=cs_test_124&success=true",
    );
    const dialog = await screen.findByRole("dialog", { name: "Payment Successful!" });
    expect(dialog).toHaveTextContent("Thank you, bea.buyer@example.com. Your images are ready.");
  });

  it("shows the purchase-complete dialog on return; closing it clears the query string", async () => {
    const purchase = {
      success: true,
      paymentStatus: "completed",
      customerEmail: "bea.buyer@example.com",
      customerName: "Bea Buyer",
      sessionId: "cs_test_123",
      licenseUrl: "http://localhost:3000/licenses/o1",
      testMode: true,
      downloads: [
        {
          style: "anime",
          filename: "neon-dream-anime.jpg",
          downloadUrl: "http://localhost:3000/downloads/tok",
          title: "Neon Dream",
          licenseUrl: "http://localhost:3000/licenses/o1",
        },
      ],
    };
    renderMarketplace(
      marketplaceData({ returned: true, purchase }),
      "/marketplace?session_id=cs_test_123&success=true",
    );
    const dialog = await screen.findByRole("dialog", { name: "Payment Successful!" });
    expect(dialog).toHaveTextContent("neon-dream-anime.jpg");
    expect(dialog).toHaveTextContent("Style: anime");
    const download = within(dialog).getByRole("link", { name: "Download neon-dream-anime.jpg" });
    expect(download).toHaveAttribute("target", "_blank");
    expect(download).toHaveAttribute("href", "http://localhost:3000/downloads/tok");
    expect(dialog).toHaveTextContent("TEST MODE");
    // Greeted by the name the buyer typed, not their address.
    expect(dialog).toHaveTextContent("Thank you, Bea Buyer. Your images are ready.");
    expect(dialog).not.toHaveTextContent("Thank you, bea.buyer@example.com");
    // The name in any script: isolated, so a right-to-left one does not reorder the commas.
    expect(within(dialog).getByTestId("buyer-greeting").tagName).toBe("BDI");
    // The payment's reference travels in the monitor's link; the buyer never reads a raw session id.
    expect(dialog).not.toHaveTextContent("cs_test_123");
    expect(dialog).not.toHaveTextContent(/session id/i);
    // The Payment Monitor is an operator's tool: the buyer's success dialog does not send them there.
    expect(within(dialog).queryByRole("link", { name: /Payment Monitor/ })).toBeNull();
    await userEvent.setup().click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() =>
      expect(screen.getByTestId("location")).toHaveTextContent(/^\/marketplace$/),
    );
  });
});

describe("/payment-monitor", () => {
  function renderMonitor(data: Record<string, unknown>, url: string) {
    renderWithRemix(
      [
        // The page's data always carries the signed-in user's recent sales (none here).
        {
          path: "/payment-monitor",
          Component: PaymentMonitor,
          loader: () => json({ sales: [], ...data }),
        },
      ],
      { url: url },
    );
  }

  it("disables Monitor while the session id is empty", async () => {
    renderMonitor({ sessionId: "", result: null, failed: false }, "/payment-monitor");
    const button = await screen.findByRole("button", { name: "Monitor" });
    await waitFor(() => expect(button).toBeDisabled());
    await userEvent.setup().type(screen.getByLabelText("Checkout session ID"), "cs_1");
    expect(button).toBeEnabled();
    expect(screen.getByText("How to Use")).toBeInTheDocument();
    expect(screen.getAllByRole("listitem").length).toBeGreaterThanOrEqual(5);
  });

  it("polls every 5 seconds without an auth header and stops once completed", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const processing = paymentResult({});
    const completed = {
      ...processing,
      success: true,
      paymentStatus: "completed",
      licenseUrl: "/licenses/o1",
      downloads: [{ style: "anime", filename: "a.jpg", downloadUrl: "/downloads/t" }],
    };
    const answers = [processing, completed];
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      expect(new Headers(init?.headers).has("Authorization")).toBe(false);
      return new Response(JSON.stringify(answers.shift() ?? completed), {
        headers: { "Content-Type": "application/json" },
      });
    });
    vi.stubGlobal("fetch", fetchMock);
    renderMonitor(
      { sessionId: "cs_1", result: processing, failed: false },
      "/payment-monitor?session_id=cs_1",
    );
    expect(await screen.findByTestId("payment-status")).toHaveTextContent("processing");
    expect(screen.getByLabelText("Checkout session ID")).toHaveValue("cs_1");
    // One column below lg whose cards may shrink to the screen (grid items default to their content's width).
    const grid = screen.getByTestId("monitor-result");
    expect(grid).toHaveClass("grid-cols-1", "lg:grid-cols-2");
    for (const column of Array.from(grid.children)) expect(column).toHaveClass("min-w-0");

    await act(async () => vi.advanceTimersByTime(5000));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(fetchMock.mock.calls[0][0]).toBe("/api/payment-status/cs_1");
    await act(async () => vi.advanceTimersByTime(5000));
    await waitFor(() =>
      expect(screen.getByTestId("payment-status")).toHaveTextContent("completed"),
    );
    expect(screen.getByText("Available Downloads")).toBeInTheDocument();
    expect(screen.getByText("Style: anime")).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTime(20_000));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe("/payment-monitor, unknown session", () => {
  it("says the payment could not be found", async () => {
    renderWithRemix(
      [
        {
          path: "/payment-monitor",
          Component: PaymentMonitor,
          loader: () =>
            json({ sessionId: "cs_nope", result: null, failed: true, notFound: true, sales: [] }),
        },
      ],
      { url: "/payment-monitor?session_id=cs_nope" },
    );
    expect(await screen.findByTestId("monitor-error")).toHaveTextContent(
      "We could not find that payment. Check the session ID and try again.",
    );
  });
});

describe("/test-checkout/:sessionId", () => {
  it("shows every amount with two decimals", async () => {
    const session = {
      sessionId: "cs_test_1",
      status: "pending",
      closedReason: null,
      customer: { name: "Bea", email: "bea@example.com", company: null },
      total: "87.5",
      totalCents: 8750,
      items: [
        { id: "i1", title: "Astronaut", style: "professional", price: "75" },
        { id: "i2", title: "Cartoon", style: "cartoon", price: "12.5" },
      ],
    };
    renderWithRemix(
      [{ path: "/test-checkout/:sessionId", Component: TestCheckout, loader: () => json(session) }],
      { url: "/test-checkout/cs_test_1" },
    );
    const prices = await screen.findAllByTestId("test-checkout-price");
    expect(prices.map((price) => price.textContent)).toEqual(["$75.00", "$12.50"]);
    expect(screen.getByTestId("test-checkout-total")).toHaveTextContent("$87.50");
    expect(screen.getByTestId("test-pay")).toHaveTextContent("Pay $87.50 (test)");
  });
});

describe("PaymentStatusCard", () => {
  it("colours the status and shows N/A and 0.00 without a result", () => {
    const { rerender } = render(<PaymentStatusCard result={null} />);
    expect(screen.getByTestId("payment-email")).toHaveTextContent("N/A");
    expect(screen.getByTestId("payment-total")).toHaveTextContent("$0.00");
    expect(screen.getByTestId("payment-status")).toHaveAttribute("data-colour", "grey");
    const base = {
      success: false,
      customerEmail: "x@example.com",
      total: 12.5,
      sessionId: "s",
      error: null,
      licenseUrl: null,
      testMode: false,
      downloads: [],
    };
    for (const [status, colour] of [
      ["completed", "green"],
      ["processing", "yellow"],
      ["failed", "red"],
      ["expired", "grey"],
    ]) {
      rerender(<PaymentStatusCard result={{ ...base, paymentStatus: status }} />);
      expect(screen.getByTestId("payment-status")).toHaveAttribute("data-colour", colour);
    }
    expect(screen.getByTestId("payment-total")).toHaveTextContent("$12.50");
  });

  it("stacks each figure under its label below sm and lets a long email break, so it fits a 390 px phone", () => {
    const long = "a.very.long.customer.address.for.testing@example-customer-domain.com";
    render(
      <PaymentStatusCard
        result={{
          success: true,
          paymentStatus: "completed",
          customerEmail: long,
          total: 8.5,
          sessionId: "s",
          error: null,
          licenseUrl: null,
          testMode: false,
          downloads: [],
        }}
      />,
    );
    const email = screen.getByTestId("payment-email");
    expect(email).toHaveTextContent(long);
    expect(email).toHaveClass("break-all", "min-w-0");
    for (const id of ["payment-status", "payment-email", "payment-total"]) {
      const row = screen.getByTestId(id).closest("dd")!.parentElement!;
      expect(row).toHaveClass("flex-col", "sm:flex-row");
    }
  });
});

describe("/marketplace/{listingId}", () => {
  function renderListingPage(listing: Record<string, unknown>) {
    renderWithRemix(
      [
        {
          path: "/marketplace/:listingId",
          Component: () => <ListingPage />,
          loader: () =>
            json({
              listing: { ...LISTING, updatedAt: LISTING.createdAt, ...listing },
              creator: {
                id: "u1",
                name: "Ada",
                handle: null,
                avatarUrl: null,
                bio: null,
                storefrontUrl: null,
              },
              more: [],
              url: "http://localhost:3000/marketplace/lst1",
              socialCard: {
                url: "http://localhost:3000/media/cards/x.jpg",
                width: 1200,
                height: 630,
                previewKey: "previews/abcdefgh.jpg",
              },
              inCart: [],
            }),
        },
      ],
      { url: "/marketplace/lst1" },
    );
  }

  it("lets the buyer pick a licence tier in a plain form posting to the cart, each tier with its price (decision 101)", async () => {
    renderListingPage({
      width: 2048,
      height: 2048,
      licenses: [
        { type: "standard", price: "25" },
        { type: "extended", price: "60" },
        { type: "exclusive", price: "400" },
      ],
    });
    const picker = await screen.findByTestId("license-picker");
    expect(picker.getAttribute("action")).toBe("/cart");
    expect(picker.getAttribute("method")).toBe("post");
    const extended = within(picker).getByTestId("license-option-extended") as HTMLInputElement;
    expect(extended.name).toBe("licenseType");
    expect(extended.value).toBe("extended");
    expect(
      (within(picker).getByTestId("license-option-standard") as HTMLInputElement).checked,
    ).toBe(true);
    expect(
      within(picker)
        .getAllByTestId("license-option-price")
        .map((p) => p.textContent),
    ).toEqual(["$25.00", "$60.00", "$400.00"]);
    expect(within(picker).getByText("Exclusive license")).toBeTruthy();
  });

  it("states the pixel size and megapixels of the file a buyer gets, and how it was upscaled", async () => {
    renderListingPage({
      width: 1638,
      height: 2048,
      upscaling: { label: "upscaled with Lanczos ×3.41", from: { width: 480, height: 600 } },
    });
    const size = await screen.findByTestId("sale-file-size");
    expect(size).toHaveTextContent("1,638 × 2,048 px (3.4 MP)");
    expect(size.closest("dd")?.previousElementSibling).toHaveTextContent("Pixel size");
    expect(screen.getByTestId("sale-file-upscaling")).toHaveTextContent(
      "Upscaled with Lanczos ×3.41 from 480 × 600 px.",
    );
  });

  it("says nothing of upscaling when the file was made at its size", async () => {
    renderListingPage({ width: 4032, height: 3024, upscaling: null });
    expect(await screen.findByTestId("sale-file-size")).toHaveTextContent(
      "4,032 × 3,024 px (12.2 MP)",
    );
    expect(screen.queryByTestId("sale-file-upscaling")).toBeNull();
  });
});
