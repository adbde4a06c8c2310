// @vitest-environment jsdom
import { act, fireEvent, screen, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import { Outlet } from "@remix-run/react";
import { describe, expect, it } from "vitest";
import type { PublicUser } from "~/lib/accounts";
import { SiteNav } from "~/ui/site-nav";
import { BuyerListsProvider } from "~/ui/buyer-lists";
import { serverHtml } from "#tests/setup/server-html";

const user = (overrides: Partial<PublicUser> = {}): PublicUser => ({
  id: "u1",
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  profileImageUrl: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  isAdmin: false,
  ...overrides,
});

function renderNav(current: PublicUser | null, registrationOpen = false) {
  renderWithRemix(
    [
      {
        path: "/",
        Component: () => <SiteNav user={current} registrationOpen={registrationOpen} />,
      },
    ],
    { url: "/" },
  );
  // The desktop bar (the small-screen menu repeats the same links).
  return within(screen.getAllByRole("navigation", { name: "Main" })[0]);
}

describe("SiteNav", () => {
  it("signed out: logo, Home, Marketplace, Training, Sign In and Get Started", () => {
    const nav = renderNav(null);
    expect(nav.getByRole("link", { name: "Selfie Studio" })).toHaveAttribute("href", "/landing");
    for (const [name, href] of [
      ["Home", "/"],
      ["Marketplace", "/marketplace"],
      ["Training", "/training"],
      ["Sign In", "/auth"],
      // Registration is closed: Get Started leads to the waitlist's form on the Register tab.
      ["Get Started", "/auth?tab=register#waitlist"],
    ]) {
      expect(nav.getAllByRole("link", { name })[0]).toHaveAttribute("href", href);
    }
    expect(nav.queryByRole("link", { name: "Dashboard" })).toBeNull();
    expect(nav.queryByRole("button", { name: "Sign Out" })).toBeNull();
  });

  it("signed in: the member links, the first name and a Sign Out form post", () => {
    const nav = renderNav(user());
    for (const [name, href] of [
      ["Dashboard", "/dashboard"],
      ["Listings", "/listings"],
      ["Analytics", "/analytics"],
      ["Integrations", "/integrations"],
      ["Payouts", "/payouts"],
      ["Settings", "/settings"],
    ]) {
      expect(nav.getAllByRole("link", { name })[0]).toHaveAttribute("href", href);
    }
    // An operator's tool, not the creator's: reached from /admin.
    expect(nav.queryByRole("link", { name: "Payment Monitor" })).toBeNull();
    expect(nav.getAllByTestId("nav-user")[0]).toHaveTextContent("Ada");
    const signOut = nav.getAllByRole("button", { name: "Sign Out" })[0];
    const form = signOut.closest("form")!;
    expect(form).toHaveAttribute("method", "post");
    expect(form).toHaveAttribute("action", "/logout");
    expect(nav.queryByRole("link", { name: "Sign In" })).toBeNull();
  });

  it("falls back to the email without a first name, and shows the profile image when present", () => {
    const nav = renderNav(user({ firstName: "", profileImageUrl: "/media/avatar.png" }));
    expect(nav.getAllByTestId("nav-user")[0]).toHaveTextContent("ada@example.com");
    expect(nav.getAllByTestId("nav-user")[0].querySelector("img")).toHaveAttribute(
      "src",
      "/media/avatar.png",
    );
  });

  it("Get Started opens the Register tab while registration is open", () => {
    const nav = renderNav(null, true);
    expect(nav.getAllByRole("link", { name: "Get Started" })[0]).toHaveAttribute(
      "href",
      "/auth?tab=register",
    );
    expect(nav.getAllByRole("link", { name: "Sign In" })[0]).toHaveAttribute("href", "/auth");
  });

  it("shows Admin to the super admin only", () => {
    expect(
      renderNav(user({ id: "super-admin", isAdmin: true })).getAllByRole("link", {
        name: "Admin",
      })[0],
    ).toHaveAttribute("href", "/admin");
  });

  it("hides Admin from other users, admins included", () => {
    expect(renderNav(user({ isAdmin: true })).queryByRole("link", { name: "Admin" })).toBeNull();
  });
});

describe("SiteNav's phone menu", () => {
  function renderMenu() {
    // The bar stays mounted across pages, as in the root layout.
    renderWithRemix(
      [
        {
          path: "/",
          Component: () => (
            <>
              <SiteNav user={user()} />
              <Outlet />
            </>
          ),
          children: [
            { index: true, Component: () => <h1>Home page</h1> },
            { path: "dashboard", Component: () => <h1>Dashboard page</h1> },
          ],
        },
      ],
      { url: "/" },
    );
    const toggle = screen.getByRole("button", { name: "Menu" });
    const panel = () => document.getElementById("site-menu");
    return { toggle, panel };
  }

  it("opens and closes with its toggle, telling assistive tech whether it is open", () => {
    const { toggle, panel } = renderMenu();
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(panel()).toBeNull();
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(within(panel()!).getByRole("link", { name: "Dashboard" })).toHaveAttribute(
      "href",
      "/dashboard",
    );
    fireEvent.click(toggle);
    expect(panel()).toBeNull();
  });

  it("closes after choosing a page", async () => {
    const { toggle, panel } = renderMenu();
    fireEvent.click(toggle);
    fireEvent.click(within(panel()!).getByRole("link", { name: "Dashboard" }));
    expect(await screen.findByRole("heading", { name: "Dashboard page" })).toBeInTheDocument();
    expect(panel()).toBeNull();
    expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  it("closes on a tap outside it, not on one inside", () => {
    const { toggle, panel } = renderMenu();
    fireEvent.click(toggle);
    fireEvent.pointerDown(within(panel()!).getByRole("link", { name: "Marketplace" }));
    expect(panel()).not.toBeNull();
    fireEvent.pointerDown(screen.getByRole("heading", { name: "Home page" }));
    expect(panel()).toBeNull();
  });

  it("closes on Escape and gives focus back to the toggle", () => {
    const { toggle, panel } = renderMenu();
    fireEvent.click(toggle);
    act(() => {
      fireEvent.keyDown(document, { key: "Escape" });
    });
    expect(panel()).toBeNull();
    expect(toggle).toHaveFocus();
  });

  it("holds the saved listings with their count (the bar shows them from 640 px)", () => {
    renderWithRemix(
      [
        {
          path: "/",
          Component: () => (
            <BuyerListsProvider cart={[]} saved={["a", "b", "c"]}>
              <SiteNav user={null} />
            </BuyerListsProvider>
          ),
        },
      ],
      { url: "/" },
    );
    fireEvent.click(screen.getByRole("button", { name: "Menu" }));
    const saved = within(document.getElementById("site-menu")!).getByRole("link", {
      name: "Saved listings (3)",
    });
    expect(saved).toHaveAttribute("href", "/saved");
    expect(saved.closest("li")).toHaveClass("sm:hidden");
  });

  it("without JavaScript: a details/summary disclosure the server renders closed", async () => {
    // As the server renders it: a static router, no effects run.
    const html = await serverHtml(<SiteNav user={user()} />, "/");
    const doc = new DOMParser().parseFromString(html, "text/html");
    const details = doc.querySelector("details")!;
    expect(details).not.toBeNull();
    expect(details.hasAttribute("open")).toBe(false);
    expect(details.querySelector("summary")).not.toBeNull();
    expect(details.querySelector('a[href="/dashboard"]')).not.toBeNull();
  });
});
