// @vitest-environment jsdom
import fs from "node:fs";
import path from "node:path";
import { act, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useState } from "react";
import { renderWithRemix } from "#tests/setup/render-route";
import type { FlashMessage } from "~/lib/flash";
import CartPage from "~/routes/_market+/cart";
import StandardLicense from "~/routes/_market+/license";
import { SiteShell } from "~/ui/site-shell";
import { useToast } from "~/ui/toaster";
import { UrlDialog } from "~/ui/url-dialog";

afterEach(() => {
  vi.useRealTimers();
});

/** A page (its route's loader data given) inside the site's shell, as the root layout draws it. */
function renderInShell(
  path: string,
  Page: () => JSX.Element,
  { data = null, flash = null }: { data?: object | null; flash?: FlashMessage | null } = {},
) {
  renderWithRemix(
    [
      {
        path,
        loader: () => data,
        Component: () => (
          <SiteShell user={null} registrationOpen={false} flash={flash}>
            <Page />
          </SiteShell>
        ),
      },
    ],
    { url: path },
  );
}

const EMPTY_CART = { items: [], totalCents: 0, unavailable: 0 };

describe("the site footer", () => {
  it("is on the cart and checkout page, once, with the terms, refunds, privacy, license, help and contact", async () => {
    renderInShell("/cart", CartPage, { data: EMPTY_CART });
    const footers = await screen.findAllByRole("contentinfo");
    expect(footers).toHaveLength(1);
    const footer = within(footers[0]);
    const links = Object.fromEntries(
      footer.getAllByRole("link").map((link) => [link.textContent, link.getAttribute("href")]),
    );
    expect(links).toEqual({
      Marketplace: "/marketplace",
      Pricing: "/pricing",
      "Creator Guide": "/creator-guide",
      "Help Center": "/help",
      "Contact Us": "/contact",
      Refunds: "/terms#refunds",
      "Terms of Service": "/terms",
      "Privacy Policy": "/privacy",
      License: "/license",
    });
    expect(footer.getAllByRole("heading").map((heading) => heading.textContent)).toEqual([
      "Product",
      "Support",
      "Company",
    ]);
    // Only real pages: none of the landing's old text-only entries.
    for (const gone of ["Features", "AI Styles", "Community", "About", "Blog", "Careers"]) {
      expect(footer.queryByText(gone)).toBeNull();
    }
    // A named navigation landmark of its own, beside the main one.
    expect(screen.getByRole("navigation", { name: "Footer" })).toBeInTheDocument();
    expect(footers[0].closest("main")).toBeNull();
  });

  it("is the page's one footer and contentinfo landmark (the license page has none of its own)", async () => {
    renderInShell("/license", StandardLicense);
    expect(await screen.findByTestId("standard-license")).toBeInTheDocument();
    expect(document.querySelectorAll("footer")).toHaveLength(1);
    expect(screen.getAllByRole("contentinfo")).toHaveLength(1);
    expect(screen.getByRole("contentinfo")).toBe(screen.getByTestId("site-footer"));
  });

  it("is the only <footer> the app draws (no page adds a second contentinfo)", () => {
    const app = path.resolve(__dirname, "..");
    const withFooter = (fs.readdirSync(app, { recursive: true }) as string[])
      .filter((file) => file.endsWith(".tsx") && !file.includes(".test."))
      .filter((file) => /<footer[\s>]/.test(fs.readFileSync(path.join(app, file), "utf8")))
      .map((file) => file.split(path.sep).join("/"));
    expect(withFooter).toEqual(["ui/site-footer.tsx"]);
  });
});

function Trigger({ message }: { message: FlashMessage }) {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast(message)}>
      Show toast
    </button>
  );
}

/** A page with a toast trigger and a URL dialog that has one too. */
function PageWithDialog() {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <Trigger message={{ kind: "info", title: "On the page" }} />
      <button type="button" onClick={() => setOpen(true)}>
        Open dialog
      </button>
      {open ? (
        <UrlDialog
          title="A dialog"
          titleId="a-dialog"
          testId="a-dialog"
          closeHref="/here"
          onClose={() => setOpen(false)}
        >
          {(cancel) => (
            <div className="mt-4 flex gap-2">
              {cancel}
              <Trigger message={{ kind: "error", title: "In the dialog" }} />
            </div>
          )}
        </UrlDialog>
      ) : null}
    </div>
  );
}

describe("the toast's place", () => {
  it("is a row of the sticky top bar under the navigation, in the page's flow: it pushes the page down, never over it", async () => {
    renderInShell("/here", () => <p>page</p>, { flash: { kind: "success", title: "Saved" } });
    const bar = await screen.findByTestId("top-bar");
    expect(bar.className.split(" ")).toEqual(expect.arrayContaining(["sticky", "top-0"]));
    const region = within(bar).getByTestId("toast-region");
    expect(within(region).getByTestId("toast")).toHaveTextContent("Saved");
    // Under the navigation, before the page.
    const banner = within(bar).getByRole("banner");
    expect(banner.compareDocumentPosition(region) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(
      region.compareDocumentPosition(screen.getByRole("main")) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    // In the flow: neither the region nor the toast floats over the page.
    for (const element of [region, within(region).getByTestId("toast")]) {
      expect(element.className).not.toMatch(/(^|\s)(fixed|absolute|sticky)(\s|$)/);
    }
    // The navigation stays above the row (its small-screen menu drops over the toast).
    expect(banner.className.split(" ")).toEqual(expect.arrayContaining(["relative", "z-10"]));
    expect(region.className).not.toMatch(/(^|\s)(relative|z-\d+)(\s|$)/);
  });

  it("shows in an open dialog, under its title, and goes back to the page when it closes", async () => {
    renderInShell("/here", PageWithDialog);
    fireEvent.click(await screen.findByRole("button", { name: "Show toast" }));
    expect(within(screen.getByTestId("toast-region")).getByTestId("toast")).toHaveTextContent(
      "On the page",
    );

    fireEvent.click(screen.getByRole("button", { name: "Open dialog" }));
    const dialog = await screen.findByTestId("a-dialog");
    // The toast showing moves into the dialog (the page behind is under the backdrop and inert).
    const slot = within(dialog).getByTestId("dialog-toast-slot");
    expect(within(slot).getByTestId("toast")).toHaveTextContent("On the page");
    expect(within(screen.getByTestId("toast-region")).queryByTestId("toast")).toBeNull();
    const title = within(dialog).getByText("A dialog");
    expect(title.compareDocumentPosition(slot) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    fireEvent.click(within(dialog).getByRole("button", { name: "Show toast" }));
    expect(within(slot).getByTestId("toast")).toHaveTextContent("In the dialog");
    expect(screen.getAllByTestId("toast")).toHaveLength(1);

    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await act(async () => {});
    expect(screen.queryByTestId("a-dialog")).toBeNull();
    expect(within(screen.getByTestId("toast-region")).getByTestId("toast")).toHaveTextContent(
      "In the dialog",
    );
  });
});
