// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { createRemixStub } from "@remix-run/testing";
import { Outlet } from "@remix-run/react";
import Training from "~/routes/_marketing+/training";
import Integrations from "~/routes/_studio+/integrations";

afterEach(cleanup);

/** The page under a root route whose data says who is signed in, as in the app. */
function underRoot(path: string, Component: () => JSX.Element, user: { id: string } | null) {
  return createRemixStub([
    {
      id: "root",
      path: "/",
      loader: () => ({ user, flash: null, registrationOpen: false }),
      Component: Outlet,
      children: [{ path: path.slice(1), Component }],
    },
  ]);
}

describe("/training", () => {
  it("shows the earning tips, the upload note and its three links", async () => {
    const Stub = underRoot("/training", Training, { id: "u1" });
    render(<Stub initialEntries={["/training"]} />);
    expect(
      await screen.findByRole("heading", { level: 1, name: "Earning tips" }),
    ).toBeInTheDocument();
    expect(screen.getByTestId("upload-note")).toHaveTextContent("JPG or PNG up to 10MB");
    expect(screen.getByRole("link", { name: "Back to Dashboard" })).toHaveAttribute(
      "href",
      "/dashboard",
    );
    expect(screen.getByRole("link", { name: "Start Creating" })).toHaveAttribute(
      "href",
      "/api/login",
    );
    expect(screen.getByRole("link", { name: "Browse Marketplace" })).toHaveAttribute(
      "href",
      "/marketplace",
    );
    // Tips use the suggested prices of app/lib/styles.ts.
    expect(
      screen.getByText(/professional \$75, fantasy \$60,\s+anime \$50, cartoon \$35/),
    ).toBeInTheDocument();
    expect(screen.getAllByRole("heading", { level: 2 }).length).toBeGreaterThanOrEqual(6);
  });

  it("offers a visitor Back to Home, not the dashboard", async () => {
    const Stub = underRoot("/training", Training, null);
    render(<Stub initialEntries={["/training"]} />);
    expect(await screen.findByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    expect(screen.queryByRole("link", { name: "Back to Dashboard" })).toBeNull();
  });
});

describe("/integrations", () => {
  it("signed out: Authentication Required with 'Please log in' and a Sign In link to /auth", async () => {
    const Stub = createRemixStub([
      { path: "/integrations", Component: Integrations, loader: () => ({ signedIn: false }) },
    ]);
    render(<Stub initialEntries={["/integrations"]} />);
    expect(
      await screen.findByRole("heading", { name: "Authentication Required" }),
    ).toBeInTheDocument();
    expect(screen.getByText("Please log in")).toBeInTheDocument();
    expect(
      screen.getByText("You need to be logged in to access integrations."),
    ).toBeInTheDocument();
    const signIn = screen.getByRole("link", { name: "Sign In" });
    expect(signIn.getAttribute("href")).toMatch(/^\/auth(\?|$)/);
  });
});
