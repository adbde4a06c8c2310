// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { PayoutsTable } from "~/features/admin/components/payouts-table";
import type { AdminPayoutRow } from "~/features/admin/sales-types";

afterEach(cleanup);

const zero = { earned: "0", owed: "0", transferred: "0", held: "0", reversed: "0" };
const ROWS: AdminPayoutRow[] = [
  {
    userId: "u1",
    email: "cora@example.com",
    firstName: "Cora",
    lastName: "Creator",
    account: { status: "active" },
    earned: "1234.5",
    owed: "0",
    transferred: "1200",
    held: "34.50",
    reversed: "21.25",
  },
  {
    userId: "u2",
    email: "nia@example.com",
    firstName: "",
    lastName: "",
    account: { status: "not_connected" },
    ...zero,
    earned: "8.50",
    owed: "8.50",
  },
  {
    userId: "u3",
    email: "pat@example.com",
    firstName: "Pat",
    lastName: "Pending",
    account: { status: "pending" },
    ...zero,
  },
  {
    userId: "u4",
    email: "rae@example.com",
    firstName: "Rae",
    lastName: "Restricted",
    account: { status: "restricted" },
    ...zero,
  },
];

/** The amounts' columns, each card's labels on phones. */
const AMOUNT_COLUMNS = ["Payout account", "Earned", "Owed", "Transferred", "Held", "Reversed"];

const row = (id: string) => within(document.querySelector(`[data-user-id="${id}"]`) as HTMLElement);

describe("PayoutsTable", () => {
  it("shows each creator's account status and their earned, owed, transferred, held and reversed amounts", () => {
    render(<PayoutsTable rows={ROWS} />);
    expect(screen.getByRole("heading", { name: "Payouts" })).toBeInTheDocument();
    expect(screen.getAllByRole("columnheader").map((th) => th.textContent)).toEqual([
      "Creator",
      ...AMOUNT_COLUMNS,
    ]);
    expect(row("u1").getByText("Cora Creator")).toBeInTheDocument();
    expect(row("u1").getByText("cora@example.com")).toBeInTheDocument();
    expect(row("u1").getByTestId("payout-account-status")).toHaveTextContent("Active");
    expect(row("u1").getByTestId("payout-earned")).toHaveTextContent("$1,234.50");
    expect(row("u1").getByTestId("payout-owed")).toHaveTextContent("$0.00");
    expect(row("u1").getByTestId("payout-transferred")).toHaveTextContent("$1,200.00");
    expect(row("u1").getByTestId("payout-held")).toHaveTextContent("$34.50");
    expect(row("u1").getByTestId("payout-reversed")).toHaveTextContent("$21.25");

    // No name: the email stands in.
    expect(row("u2").getAllByText("nia@example.com")).toHaveLength(2);
    expect(row("u2").getByTestId("payout-account-status")).toHaveTextContent("Not set up");
    expect(row("u2").getByTestId("payout-owed")).toHaveTextContent("$8.50");
    expect(row("u3").getByTestId("payout-account-status")).toHaveTextContent("Pending");
    expect(row("u4").getByTestId("payout-account-status")).toHaveTextContent("Restricted");
  });

  it("says so when no creator has anything yet", () => {
    render(<PayoutsTable rows={[]} />);
    expect(screen.getByTestId("no-payouts")).toHaveTextContent(
      "No creator has a sale or a payout account yet.",
    );
  });

  it("stacks into labelled cards on phones (every amount named), a table from sm up", () => {
    render(<PayoutsTable rows={ROWS} />);
    expect(screen.getByRole("table").className).toContain("sm:table");
    const cells = Array.from(document.querySelector('[data-user-id="u1"]')!.querySelectorAll("td"));
    expect(cells.slice(1).map((td) => td.getAttribute("data-label"))).toEqual(AMOUNT_COLUMNS);
  });
});
