// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import { PayoutsCard } from "~/features/payouts/components/payouts-card";
import type { PayoutAccountView, PayoutBalance } from "~/features/payouts/types";

afterEach(cleanup);

const ZERO: PayoutBalance = { earned: "0", owed: "0", transferred: "0", held: "0", reversed: "0" };

function renderCard(account: PayoutAccountView, balance: PayoutBalance = ZERO) {
  renderWithRemix(<PayoutsCard payouts={{ account, balance }} />, { url: "/dashboard" });
  return screen.getByRole("region", { name: "Payouts" });
}

describe("PayoutsCard", () => {
  it("says payouts are not set up, marks test mode and links to set them up", () => {
    const card = renderCard({
      provider: "test",
      status: "not_connected",
      payoutsEnabled: false,
      country: null,
      crossBorder: false,
    });
    expect(within(card).getByRole("heading", { level: 2, name: "Payouts" })).toBeInTheDocument();
    expect(within(card).getByTestId("payout-account-state")).toHaveTextContent("Not set up");
    expect(within(card).getByText("TEST MODE")).toBeInTheDocument();
    expect(within(card).getByRole("link", { name: "Set up payouts" })).toHaveAttribute(
      "href",
      "/payouts",
    );
    expect(within(card).queryByRole("link", { name: "Manage payouts" })).not.toBeInTheDocument();
  });

  it("shows the balance as a description list: Earned, Owed, Transferred, Held, Reversed", () => {
    const card = renderCard(
      {
        provider: "stripe",
        status: "active",
        payoutsEnabled: true,
        country: null,
        crossBorder: false,
      },
      { earned: "42.50", owed: "8.50", transferred: "17", held: "17", reversed: "4.25" },
    );
    const terms = within(card)
      .getAllByRole("term")
      .map((term) => term.textContent);
    expect(terms).toEqual(["Earned", "Owed", "Transferred", "Held", "Reversed"]);
    const values = within(card)
      .getAllByRole("definition")
      .map((value) => value.textContent);
    expect(values).toEqual(["$42.50", "$8.50", "$17.00", "$17.00", "$4.25"]);
    expect(within(card).getByTestId("payout-account-state")).toHaveTextContent("Active");
    expect(within(card).queryByText("TEST MODE")).not.toBeInTheDocument();
    expect(within(card).getByRole("link", { name: "Manage payouts" })).toHaveAttribute(
      "href",
      "/payouts",
    );
  });

  it("names the pending and restricted states in words", () => {
    let card = renderCard({
      provider: "stripe",
      status: "pending",
      payoutsEnabled: false,
      country: null,
      crossBorder: false,
    });
    expect(within(card).getByTestId("payout-account-state")).toHaveTextContent("Setting up");
    cleanup();
    card = renderCard({
      provider: "stripe",
      status: "restricted",
      payoutsEnabled: false,
      country: null,
      crossBorder: false,
    });
    expect(within(card).getByTestId("payout-account-state")).toHaveTextContent("Needs attention");
    expect(card).toHaveTextContent("Stripe needs more information");
    expect(within(card).getByRole("link", { name: "Manage payouts" })).toBeInTheDocument();
  });
});
