// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import { formOf } from "#tests/setup/form-of";
import { PayoutsPage } from "~/features/payouts/components/payouts-page";
import type { PayoutsOverview } from "~/features/payouts/types";
import { newCreatorOverview } from "~/features/payouts/test-support";

afterEach(cleanup);

const FRESH = newCreatorOverview({ earned: "17", owed: "17" });

function renderPage(
  overview: PayoutsOverview,
  extra: Partial<Parameters<typeof PayoutsPage>[0]> = {},
) {
  renderWithRemix(
    [{ path: "/payouts", Component: () => <PayoutsPage overview={overview} {...extra} /> }],
    { url: "/payouts" },
  );
}

describe("PayoutsPage", () => {
  it("offers to set payouts up with a plain form post, and explains test mode", () => {
    renderPage(FRESH);
    expect(screen.getByRole("heading", { level: 1, name: "Payouts" })).toBeInTheDocument();
    const account = screen.getByRole("region", { name: /Payout account/ });
    expect(within(account).getByTestId("payout-account-state")).toHaveTextContent("Not set up");
    expect(within(account).getByTestId("payout-account-explanation")).toHaveTextContent(
      "You have no payout account yet.",
    );
    const setUp = within(account).getByRole("button", { name: "Set up payouts" });
    expect(formOf(setUp)).toEqual({
      method: "post",
      action: "/payouts",
      fields: { intent: "onboard", country: "US" },
    });
    expect(
      within(account).queryByRole("button", { name: "Open Stripe dashboard" }),
    ).not.toBeInTheDocument();

    const note = screen.getByTestId("payouts-test-notice");
    expect(note).toHaveTextContent("TEST MODE");
    expect(note).toHaveTextContent("No money moves");
    expect(note).toHaveTextContent("Set up payouts to open your test payout account.");
  });

  it("shows what the test payout account holds once it exists, and an empty transfers list", () => {
    renderPage({
      ...FRESH,
      account: {
        provider: "test",
        status: "pending",
        payoutsEnabled: false,
        country: null,
        crossBorder: false,
      },
      testAccountBalance: "0",
    });
    expect(screen.getByTestId("test-account-balance")).toHaveTextContent(
      "Your test payout account holds $0.00.",
    );
    expect(screen.getByRole("button", { name: "Continue setup" })).toBeInTheDocument();
    expect(screen.getByTestId("transfers-empty")).toHaveTextContent("No transfers yet.");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("lists the transfers in a table and the balance in a description list", () => {
    renderPage({
      account: {
        provider: "test",
        status: "active",
        payoutsEnabled: true,
        country: null,
        crossBorder: false,
      },
      platformCountry: "US",
      currency: "usd",
      balance: { earned: "25.50", owed: "0", transferred: "17", held: "0", reversed: "8.50" },
      transfers: [
        {
          id: "ttr_one",
          title: "Harbour at Dusk",
          saleReference: "sale-1",
          amount: "17",
          reversed: "0",
          status: "transferred",
          createdAt: "2026-11-24T10:00:00.000Z",
          testMode: true,
        },
        {
          id: "ttr_two",
          title: "Noir Portrait",
          saleReference: "sale-2",
          amount: "8.50",
          reversed: "8.50",
          status: "reversed",
          createdAt: "2026-11-23T10:00:00.000Z",
          testMode: true,
        },
      ],
      testAccountBalance: "17",
    });
    expect(screen.getByTestId("test-account-balance")).toHaveTextContent(
      "Your test payout account holds $17.00.",
    );
    expect(
      screen.queryByRole("button", { name: /Set up payouts|Continue setup/ }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Open Stripe dashboard" })).not.toBeInTheDocument();

    const balance = within(screen.getByRole("region", { name: "Balance" }));
    expect(balance.getAllByRole("term").map((term) => term.textContent)).toEqual([
      "Earned",
      "Owed",
      "Transferred",
      "Held",
      "Reversed",
    ]);
    expect(balance.getByTestId("balance-reversed")).toHaveTextContent("$8.50");

    const table = screen.getByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["Image sold", "Amount", "Reversed", "Status", "Date", "Transfer"]);
    const [, first, second] = within(table).getAllByRole("row");
    // Each row leads with the image's title; the sale reference is a small secondary line.
    const [firstLead, ...firstCells] = within(first).getAllByRole("cell");
    expect(within(firstLead).getByTestId("transfer-title")).toHaveTextContent("Harbour at Dusk");
    expect(within(firstLead).getByTestId("transfer-sale-reference")).toHaveTextContent(
      "Sale ref. sale-1",
    );
    expect(within(firstLead).getByText("Test")).toBeInTheDocument();
    expect(firstCells.map((td) => td.textContent)).toEqual([
      "$17.00",
      "$0.00",
      "Transferred",
      "Nov 24, 2026",
      "ttr_one",
    ]);
    const [secondLead, ...secondCells] = within(second).getAllByRole("cell");
    expect(within(secondLead).getByTestId("transfer-title")).toHaveTextContent("Noir Portrait");
    expect(secondCells.map((td) => td.textContent)).toEqual([
      "$8.50",
      "$8.50",
      "Reversed",
      "Nov 23, 2026",
      "ttr_two",
    ]);

    // On phones every row is a card whose cells are labelled "Label: value" (the label is the cell's data-label).
    expect(firstCells.map((td) => td.getAttribute("data-label"))).toEqual([
      "Amount",
      "Reversed",
      "Status",
      "Date",
      "Transfer",
    ]);
    expect(first).toHaveClass("block", "sm:table-row");
    expect(table).toHaveClass("block", "sm:table");
    // From `sm` the table scrolls sideways inside a region a keyboard can reach and scroll (no scrollable region that takes no focus).
    const region = screen.getByRole("region", { name: "Transfers to your payout account" });
    expect(region).toContainElement(table);
    expect(region).toHaveAttribute("tabindex", "0");
    expect(region).not.toHaveClass("overflow-x-auto");
    expect(region).toHaveClass("sm:overflow-x-auto");

    const terms = within(screen.getByRole("region", { name: "How your share moves" }))
      .getAllByRole("term")
      .map((term) => term.textContent);
    expect(terms).toEqual(["Owed", "Held", "Reversed"]);
  });

  it("offers the Stripe dashboard to an active or restricted Stripe account, without a test mode notice", () => {
    renderPage({
      ...FRESH,
      account: {
        provider: "stripe",
        status: "restricted",
        payoutsEnabled: false,
        country: null,
        crossBorder: false,
      },
    });
    expect(formOf(screen.getByRole("button", { name: "Open Stripe dashboard" }))).toEqual({
      method: "post",
      action: "/payouts",
      fields: { intent: "dashboard" },
    });
    expect(formOf(screen.getByRole("button", { name: "Continue setup" })).fields).toEqual({
      intent: "onboard",
    });
    expect(screen.getByTestId("payout-account-state")).toHaveTextContent("Needs attention");
    expect(screen.queryByTestId("payouts-test-notice")).not.toBeInTheDocument();
    expect(screen.queryByText("TEST MODE")).not.toBeInTheDocument();
    cleanup();
    renderPage({
      ...FRESH,
      account: {
        provider: "stripe",
        status: "pending",
        payoutsEnabled: false,
        country: null,
        crossBorder: false,
      },
    });
    expect(screen.queryByRole("button", { name: "Open Stripe dashboard" })).not.toBeInTheDocument();
  });

  it("shows the notice from onboarding and the error of a failed action", () => {
    renderPage(FRESH, {
      notice: {
        kind: "success",
        title: "Payout account updated",
        description: "Your payout account is active.",
      },
      error: "Finish setting up payouts first",
    });
    expect(screen.getByRole("status")).toHaveTextContent("Payout account updated");
    expect(screen.getByRole("alert")).toHaveTextContent("Finish setting up payouts first");
  });

  it("asks the country in a select preset to the platform's, and shows a cross-border account's country, its 24-hour delay and amounts in the settlement currency", () => {
    renderPage({ ...FRESH, platformCountry: "GB", currency: "gbp" });
    const select = screen.getByLabelText("Country you live in (where your bank account is)");
    expect(select).toHaveValue("GB");
    expect(within(select).getByRole("option", { name: "Nigeria" })).toBeInTheDocument();
    expect(screen.getByTestId("balance-earned")).toHaveTextContent("£17.00");
    cleanup();

    renderPage({
      ...FRESH,
      account: {
        provider: "stripe",
        status: "active",
        payoutsEnabled: true,
        country: "FR",
        crossBorder: true,
      },
      currency: "usd",
    });
    expect(
      screen.queryByLabelText("Country you live in (where your bank account is)"),
    ).not.toBeInTheDocument();
    expect(screen.getByTestId("payout-account-country")).toHaveTextContent("France");
    expect(screen.getByTestId("payout-cross-border")).toHaveTextContent("outside United States");
    expect(screen.getByTestId("payout-cross-border")).toHaveTextContent("24 hours");
  });
});
