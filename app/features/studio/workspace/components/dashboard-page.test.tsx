// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import { useLocation, useNavigate } from "@remix-run/react";
import userEvent from "@testing-library/user-event";
import { ToastProvider } from "~/ui/toaster";
import { DashboardPage } from "~/features/studio/workspace/components/dashboard-page";
import { OPTIMIZATION_DEFAULTS } from "~/features/studio/optimize/optimization";
import type { PipelineStep } from "~/features/studio/workspace/dashboard-url";
import type { DashboardData, ImageJson, StylizedImageJson } from "~/features/studio/types";
import { visibleText } from "#tests/setup/visible-text";
import { TEST_IMAGE, stylizedJson } from "#tests/setup/studio-json";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const IMAGE = TEST_IMAGE;

const done = (
  id: string,
  style: string,
  extra: Partial<StylizedImageJson> = {},
): StylizedImageJson =>
  stylizedJson({
    id,
    style,
    styledUrl: `/media/styled/${id}aaaaaaaa.jpg?exp=1&sig=y`,
    stylizedUrl: `/media/styled/${id}aaaaaaaa.jpg?exp=1&sig=y`,
    bytes: 1000,
    createdAt: "2026-11-22T10:00:00.000Z",
    completedAt: "2026-11-22T10:00:05.000Z",
    ...extra,
  });

type PageData = Parameters<typeof DashboardPage>[0]["data"];

function data(view: Partial<DashboardData["view"]>, stylized: StylizedImageJson[]): PageData {
  return {
    payouts: {
      account: {
        provider: "test",
        status: "not_connected",
        payoutsEnabled: false,
        country: null,
        crossBorder: false,
      },
      balance: { earned: "17", owed: "17", transferred: "0", held: "0", reversed: "0" },
    },
    user: {
      id: "u1",
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "L",
      profileImageUrl: null,
      createdAt: "",
      isAdmin: false,
    },
    stats: {
      totalImages: 1,
      totalStylized: 2,
      totalListed: 0,
      totalSales: 0,
      totalEarnings: 0,
      totalViews: 0,
    },
    images: [IMAGE],
    stylized,
    view: {
      step: "upload",
      image: null,
      styled: null,
      platforms: [],
      pending: null,
      panel: null,
      optimization: OPTIMIZATION_DEFAULTS,
      preset: null,
      refreshUrl: null,
      ...view,
    },
  };
}

function renderPage(page: PageData) {
  renderWithRemix(
    [
      {
        path: "/dashboard",
        Component: () => (
          <ToastProvider flash={null}>
            <DashboardPage data={page} />
          </ToastProvider>
        ),
      },
    ],
    { url: "/dashboard" },
  );
}

describe("DashboardPage", () => {
  const grid = [
    done("a1", "cartoon", {
      optimizedUrl: "/media/optimized/a1aaaaaaaa.webp?exp=1&sig=z",
      format: "webp",
      quality: 85,
    }),
    done("b2", "fantasy", { provider: "fal" }),
    done("c3", "anime", {
      status: "failed",
      styledUrl: null,
      stylizedUrl: null,
      error: "The model could not read this photo.",
    }),
    done("d4", "professional", { status: "processing", styledUrl: null, stylizedUrl: null }),
  ];

  it("shows each step of the pipeline with its panel", () => {
    renderPage(data({ step: "upload" }, []));
    expect(screen.getByTestId("pipeline-position")).toHaveTextContent("Step 1 of 4: Upload");
    expect(screen.getByTestId("upload-widget")).toBeInTheDocument();
    cleanup();

    renderPage(data({ step: "style", image: IMAGE }, []));
    expect(screen.getByTestId("pipeline-position")).toHaveTextContent("Step 2 of 4: Style");
    expect(screen.getByTestId("style-generator")).toBeInTheDocument();
    expect(screen.getByTestId("uploads-strip")).toBeInTheDocument();
    cleanup();

    renderPage(data({ step: "optimize", image: IMAGE, styled: grid[0] }, grid));
    expect(screen.getByTestId("pipeline-position")).toHaveTextContent("Step 3 of 4: Optimize");
    expect(screen.getByTestId("optimization-panel")).toBeInTheDocument();
    cleanup();

    const platforms = [
      { id: "marketplace" as const, name: "Selfie Studio", connected: true },
      { id: "opensea" as const, name: "OpenSea", connected: false },
    ];
    renderPage(
      data({ step: "market", image: IMAGE, styled: grid[0], panel: "sell", platforms }, grid),
    );
    expect(screen.getByTestId("pipeline-position")).toHaveTextContent("Step 4 of 4: Market");
    const sell = screen.getByTestId("market-panel");
    expect(within(sell).getByRole("button", { name: "List for Sale" })).toBeInTheDocument();
    expect(within(sell).getByLabelText("Title")).toHaveValue("Cartoon Style Selfie");
    cleanup();

    renderPage(
      data({ step: "market", image: IMAGE, styled: grid[0], panel: "launch", platforms }, grid),
    );
    const launch = screen.getByTestId("market-panel");
    expect(within(launch).getByRole("button", { name: "Launch Marketing" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Start over with a new selfie" })).toHaveAttribute(
      "href",
      "/dashboard?step=upload#pipeline",
    );
  });

  it("names each card's links after its image, keeping the visible text, so no two cards' links share a name", () => {
    const twoCartoons = [done("a1", "cartoon"), done("b2", "cartoon"), done("c3", "anime")];
    renderPage(data({ step: "upload" }, twoCartoons));
    const links = screen
      .getAllByTestId("creation")
      .flatMap((card) => within(card).getAllByRole("link"));
    expect(links.map((link) => visibleText(link))).toEqual([
      ...["Optimize", "Launch Marketing", "List for Sale"],
      ...["Optimize", "Launch Marketing", "List for Sale"],
      ...["Optimize", "Launch Marketing", "List for Sale"],
    ]);
    const names = links.map((link) => link.textContent);
    expect(names.slice(0, 3)).toEqual([
      "Optimize: Cartoon image 1",
      "Launch Marketing: Cartoon image 1",
      "List for Sale: Cartoon image 1",
    ]);
    expect(names[3]).toBe("Optimize: Cartoon image 2");
    expect(names[6]).toBe("Optimize: Anime image");
    expect(new Set(names).size).toBe(names.length);
    expect(screen.getByRole("link", { name: "List for Sale: Cartoon image 2" })).toHaveAttribute(
      "href",
      "/dashboard?styled=b2&step=market&panel=sell#pipeline",
    );
    const deletes = screen
      .getAllByRole("button", { name: /^Delete the / })
      .map((button) => button.getAttribute("aria-label"));
    expect(deletes).toEqual([
      "Delete the Cartoon image 1",
      "Delete the Cartoon image 2",
      "Delete the Anime image",
    ]);
  });

  it("lists the stylized images with their state, engine and actions", () => {
    renderPage(data({ step: "upload" }, grid));
    const cards = screen.getAllByTestId("creation");
    expect(cards.map((card) => card.getAttribute("data-status"))).toEqual([
      "completed",
      "completed",
      "failed",
      "processing",
    ]);
    const first = within(cards[0]);
    expect(first.getByText("Optimized")).toBeInTheDocument();
    expect(first.getByRole("img")).toHaveAttribute("src", grid[0].optimizedUrl);
    expect(first.getByRole("link", { name: "Optimize: Cartoon image" })).toHaveAttribute(
      "href",
      "/dashboard?styled=a1&step=optimize#pipeline",
    );
    expect(first.getByRole("link", { name: "Launch Marketing: Cartoon image" })).toHaveAttribute(
      "href",
      "/dashboard?styled=a1&step=market&panel=launch#pipeline",
    );
    expect(first.getByRole("link", { name: "List for Sale: Cartoon image" })).toHaveAttribute(
      "href",
      "/dashboard?styled=a1&step=market&panel=sell#pipeline",
    );
    expect(first.getByRole("button", { name: "Delete the Cartoon image" })).toBeInTheDocument();
    expect(within(cards[1]).getByText("Styled with fal.ai")).toBeInTheDocument();
    expect(within(cards[0]).getByText("Styled by Selfie Studio")).toBeInTheDocument();
    expect(within(cards[2]).getByText("The model could not read this photo.")).toBeInTheDocument();
    expect(within(cards[3]).getByText("Generating…")).toBeInTheDocument();
    expect(within(cards[3]).queryByRole("button")).toBeNull(); // nothing to delete until it ends
  });

  it("lets a returning creator reach earlier uploads in one click from /dashboard", () => {
    const older: ImageJson = {
      ...IMAGE,
      id: "img0",
      originalUrl: "/media/originals/olderolderol.png?exp=1&sig=x",
    };
    renderPage({ ...data({ step: "upload" }, []), images: [IMAGE, older] });
    const strip = within(screen.getByTestId("uploads-strip"));
    const links = strip.getAllByRole("link");
    expect(links.map((link) => link.getAttribute("href"))).toEqual([
      "/dashboard?image=img1&step=style#pipeline",
      "/dashboard?image=img0&step=style#pipeline",
    ]);
    // The Style step is a link too, to the newest upload.
    const pipeline = within(screen.getByRole("navigation", { name: "Pipeline" }));
    expect(pipeline.getByRole("link", { name: /Style/ })).toHaveAttribute(
      "href",
      "/dashboard?image=img1&step=style#pipeline",
    );
    cleanup();

    // On the style step with no upload chosen, the uploads come before the "upload first" note.
    renderPage({ ...data({ step: "style" }, []), images: [IMAGE, older] });
    const strip2 = screen.getByTestId("uploads-strip");
    const generator = screen.getByTestId("style-generator");
    expect(
      strip2.compareDocumentPosition(generator) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it("shows each creation's real price and whether it is live on the marketplace", () => {
    const page = {
      ...data({ step: "upload" }, grid),
      market: { a1: { price: "75", listed: true }, b2: { price: "60", listed: false } },
    };
    renderPage(page);
    const cards = screen.getAllByTestId("creation");
    expect(within(cards[0]).getByTestId("creation-market")).toHaveTextContent("$75");
    expect(within(cards[0]).getByText("Live on the marketplace")).toBeInTheDocument();
    expect(within(cards[1]).getByTestId("creation-market")).toHaveTextContent("$60");
    expect(within(cards[1]).getByText("Not listed")).toBeInTheDocument();
  });

  it("opens List for Sale as a dialog at the image's price, with the own marketplace ticked and focus on the first field", async () => {
    const platforms = [{ id: "marketplace" as const, name: "Selfie Studio", connected: true }];
    const page = {
      ...data({ step: "market", image: IMAGE, styled: grid[1], panel: "sell", platforms }, grid),
      market: { b2: { price: "60", listed: false } },
    };
    renderPage(page);
    const dialog = await screen.findByRole("dialog", { name: "List for Sale" });
    const panel = within(dialog);
    expect(panel.getByLabelText("Price (USD)")).toHaveValue(60);
    const own = panel.getByRole("checkbox", { name: /Selfie Studio/ });
    expect(own).toBeChecked();
    await waitFor(() => expect(own).toHaveFocus());
  });

  it("has the Manage Integrations button and the Back to Home link", () => {
    renderPage(data({}, []));
    expect(screen.getByRole("link", { name: "Manage Integrations" })).toHaveAttribute(
      "href",
      "/integrations",
    );
    expect(screen.getByRole("link", { name: "Back to Home" })).toBeInTheDocument();
    expect(screen.getByText("Total Images").nextSibling).toHaveTextContent("1");
  });

  it("puts a new creator's upload first: the pipeline comes before the (zero) stat cards and the Payouts card", () => {
    const newCreator: PageData = {
      ...data({ step: "upload" }, []),
      images: [],
      stats: { ...data({}, []).stats, totalImages: 0, totalStylized: 0 },
    };
    renderPage(newCreator);
    const upload = screen.getByTestId("upload-widget");
    const summary = screen.getByTestId("dashboard-summary");
    expect(upload.compareDocumentPosition(summary) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(summary).getByText("Total Images")).toBeInTheDocument();
    expect(within(summary).getByTestId("payouts-card")).toBeInTheDocument();
    // Nothing moves it by CSS: the page's own order is the order on every screen.
    expect(summary.className).not.toMatch(/order-/);
  });

  it("keeps a returning creator's summary above the pipeline on wider screens, and under it on a phone", () => {
    renderPage(data({ step: "upload" }, []));
    const pipeline = screen.getByRole("navigation", { name: "Pipeline" });
    const summary = screen.getByTestId("dashboard-summary");
    expect(
      summary.compareDocumentPosition(pipeline) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    // Below sm the column's order puts it after the pipeline (order 0) and before the grid.
    expect(summary.parentElement!.className.split(" ")).toEqual(
      expect.arrayContaining(["flex", "flex-col"]),
    );
    expect(summary.className.split(" ")).toContain("max-sm:order-1");
    expect(screen.getByTestId("image-grid").parentElement!.className.split(" ")).toContain(
      "max-sm:order-2",
    );
  });

  it("shows the Payouts card with the account's state and the balance", () => {
    renderPage(data({}, []));
    const card = within(screen.getByTestId("payouts-card"));
    expect(card.getByRole("heading", { name: "Payouts" })).toBeInTheDocument();
    expect(card.getByText("Not set up")).toBeInTheDocument();
    expect(card.getByText("TEST MODE")).toBeInTheDocument();
    expect(card.getByTestId("balance-owed")).toHaveTextContent("$17.00");
    expect(card.getByRole("link", { name: "Set up payouts" })).toHaveAttribute("href", "/payouts");
  });
});

describe("DashboardPage keeps the open step on screen", () => {
  /** The page at a URL, its step read from ?step= as the loader does, with a Back button. */
  function renderAt(url: string) {
    const scrolled: Element[] = [];
    // jsdom lays nothing out and has no scrollIntoView: record which element is asked to scroll.
    Object.defineProperty(HTMLElement.prototype, "scrollIntoView", {
      configurable: true,
      value: function (this: HTMLElement) {
        scrolled.push(this);
      },
    });
    function Page() {
      const location = useLocation();
      const navigate = useNavigate();
      const step = (new URLSearchParams(location.search).get("step") ?? "upload") as PipelineStep;
      return (
        <ToastProvider flash={null}>
          <button type="button" onClick={() => navigate(-1)}>
            Back
          </button>
          <p data-testid="location">{location.search}</p>
          <DashboardPage data={data({ step }, [])} />
        </ToastProvider>
      );
    }
    renderWithRemix([{ path: "/dashboard", Component: Page }], { url: url });
    return scrolled;
  }

  afterEach(() => {
    delete (HTMLElement.prototype as Partial<HTMLElement>).scrollIntoView;
  });

  it("scrolls the pipeline into view when the step changes, not on a plain visit, not when the step stays", async () => {
    const scrolled = renderAt("/dashboard");
    const user = userEvent.setup();
    expect(screen.getByTestId("pipeline-position")).toHaveTextContent("Step 1 of 4: Upload");
    expect(scrolled).toEqual([]);

    await user.click(
      within(screen.getByRole("navigation", { name: "Pipeline" })).getByRole("link", {
        name: /Style/,
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId("pipeline-position")).toHaveTextContent("Step 2 of 4: Style"),
    );
    expect(scrolled).toEqual([document.getElementById("pipeline")]);

    // Another upload on the same step: the page stays where it is.
    await user.click(screen.getByRole("link", { name: "Upload 1: style this selfie" }));
    await waitFor(() =>
      expect(screen.getByTestId("location")).toHaveTextContent("?image=img1&step=style"),
    );
    expect(scrolled).toHaveLength(1);

    // Back and Forward keep the position the browser restores.
    await user.click(screen.getByRole("button", { name: "Back" }));
    await user.click(screen.getByRole("button", { name: "Back" }));
    await waitFor(() =>
      expect(screen.getByTestId("pipeline-position")).toHaveTextContent("Step 1 of 4: Upload"),
    );
    expect(scrolled).toHaveLength(1);
  });

  it("opens at the step when the URL names one", () => {
    const scrolled = renderAt("/dashboard?step=style");
    expect(screen.getByTestId("pipeline-position")).toHaveTextContent("Step 2 of 4: Style");
    expect(scrolled).toEqual([document.getElementById("pipeline")]);
  });
});
