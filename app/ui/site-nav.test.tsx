// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { createRemixStub } from "@remix-run/testing";
import { describe, expect, it } from "vitest";
import type { PublicUser } from "~/lib/accounts";
import { SiteNav } from "~/ui/site-nav";

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

function renderNav(current: PublicUser | null) {
  const Stub = createRemixStub([{ path: "/", Component: () => <SiteNav user={current} /> }]);
  render(<Stub />);
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
      ["Get Started", "/auth"],
    ]) {
      expect(nav.getAllByRole("link", { name })[0]).toHaveAttribute("href", href);
    }
    expect(nav.queryByRole("link", { name: "Dashboard" })).toBeNull();
    expect(nav.queryByRole("button", { name: "Sign Out" })).toBeNull();
  });

  it("signed in: the member links, the first name and a Sign Out form post", () => {
    const nav = renderNav(user());
    for (const name of ["Dashboard", "Integrations", "Payment Monitor"]) {
      expect(nav.getAllByRole("link", { name }).length).toBeGreaterThan(0);
    }
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
    expect(nav.getAllByTestId("nav-user")[0].querySelector("img")).toHaveAttribute("src", "/media/avatar.png");
  });
});
