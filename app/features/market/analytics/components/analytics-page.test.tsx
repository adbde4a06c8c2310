// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import { AnalyticsPage } from "~/features/market/analytics/components/analytics-page";
import type { AnalyticsDay, CreatorAnalytics } from "~/features/market/analytics/analytics";

afterEach(cleanup);

const day = (date: string, saves: number): AnalyticsDay => ({
  date,
  views: 4,
  addsToCart: 1,
  saves,
  sales: 0,
  conversion: 0,
  earnings: "0",
  testSales: 0,
});

const REPORT: CreatorAnalytics = {
  days: [day("2026-11-25", 2), day("2026-11-26", 3)],
  listings: [
    {
      listingId: "listing1",
      title: "Neon Dream",
      views: 8,
      saves: 5,
      sales: 0,
      conversion: 0,
      earnings: "0",
    },
  ],
  followers: { confirmed: 12, newInRange: 3 },
  bundles: [{ bundleId: "bundle1", title: "Four looks", sales: 2, earnings: "17.00" }],
  discountCodes: [
    {
      discountCodeId: "code1",
      code: "LAUNCH",
      orders: 3,
      revenue: "24",
      discount: "6",
      earnings: "20.4",
    },
  ],
};

function renderPage() {
  renderWithRemix(
    <AnalyticsPage
      range={7}
      notice={null}
      report={REPORT}
      order={{ sort: "saves", dir: "desc" }}
    />,
    { url: "/analytics" },
  );
}

describe("AnalyticsPage", () => {
  it("shows the followers (a count, those new in the range) and the saves in the totals, per day and per listing", () => {
    renderPage();
    const totals = screen.getByTestId("analytics-totals");
    const card = (label: string) => within(totals).getByText(label).closest("div")!;
    expect(card("Followers")).toHaveTextContent("12");
    expect(card("Followers")).toHaveTextContent("3 new in the last 7 days");
    expect(card("Saves")).toHaveTextContent("5");

    const days = screen.getByTestId("analytics-days");
    expect(within(days).getAllByRole("columnheader")[3]).toHaveTextContent("Saves");
    const row = days.querySelector("tr[data-date='2026-11-26']")!;
    expect(within(row as HTMLElement).getAllByRole("cell")[2]).toHaveTextContent("3");

    const listings = screen.getByTestId("analytics-listings");
    const saves = within(listings).getByRole("columnheader", { name: /^Saves/ });
    expect(saves).toHaveAttribute("aria-sort", "descending");
    expect(within(saves).getByRole("link")).toHaveAttribute(
      "href",
      "/analytics?days=7&sort=saves&dir=asc",
    );
    const listing = listings.querySelector("tr[data-listing-id='listing1']")!;
    expect(within(listing as HTMLElement).getAllByRole("cell")[1]).toHaveTextContent("5");
  });

  it("links to the monthly sales CSV with a plain link", () => {
    renderPage();
    const link = screen.getByRole("link", { name: "Download sales (CSV)" });
    expect(link).toHaveAttribute("href", "/analytics/sales.csv");
    // The server's attachment downloads it; a link with `download` would save a sign-in page as the file.
    expect(link).not.toHaveAttribute("download");
  });

  it("lists the bundles sold in the range, each linking to its page, with its sales and earnings", () => {
    renderPage();
    const table = screen.getByTestId("analytics-bundles");
    const row = within(table).getByRole("row", { name: /Four looks/ });
    expect(within(row).getByRole("link", { name: "Four looks" })).toHaveAttribute(
      "href",
      "/bundles/bundle1",
    );
    expect(row).toHaveTextContent("2");
    expect(row).toHaveTextContent("$17.00");
  });

  it("shows the revenue per discount code: orders, what it took off, revenue and earnings", () => {
    renderPage();
    const table = screen.getByTestId("analytics-discount-codes");
    const row = within(table).getByRole("row", { name: /LAUNCH/ });
    expect(
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["3", "$6.00", "$24.00", "$20.40"]);
  });
});
