// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { RecentSales } from "~/features/market/analytics/components/recent-sales";
import type { CreatorSale } from "~/features/market/types";

afterEach(cleanup);

const SALE: CreatorSale = {
  id: "item1",
  title: "Neon Dream",
  style: "anime",
  priceCents: 2500,
  currency: "eur",
  paidAt: "2026-11-26T09:00:00.000Z",
  testCheckout: false,
  state: "partly refunded",
};

describe("RecentSales", () => {
  it("shows each sale's image, day, price in its currency and payment state", () => {
    render(
      <RecentSales
        sales={[SALE, { ...SALE, id: "item2", state: "disputed", testCheckout: true }]}
      />,
    );
    const section = screen.getByRole("region", { name: "Your recent sales" });
    const rows = within(section).getAllByTestId("recent-sale");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("Neon Dream (Anime)");
    expect(rows[0]).toHaveTextContent("2026-11-26");
    expect(rows[0]).toHaveTextContent("€25.00");
    expect(within(rows[0]!).getByTestId("sale-state")).toHaveTextContent("Partly refunded");
    expect(within(rows[1]!).getByTestId("sale-state")).toHaveTextContent("Disputed");
    expect(rows[1]).toHaveTextContent("test checkout, no money moved");
  });

  it("says so when there is no sale yet", () => {
    render(<RecentSales sales={[]} />);
    expect(screen.getByText(/No sales yet/)).toBeInTheDocument();
    expect(screen.queryByRole("table")).toBeNull();
  });
});
