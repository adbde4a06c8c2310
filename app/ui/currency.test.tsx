// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import { formatMoney } from "~/lib/money";
import { CurrencyProvider } from "~/ui/currency";
import type { AnalyticsDay } from "~/features/market/analytics/analytics";
import {
  ListingCard,
  type ListingCardData,
} from "~/features/market/catalog/components/listing-card";
import { NEON_LISTING } from "~/features/market/catalog/components/test-support";

afterEach(cleanup);

const LISTING = NEON_LISTING as unknown as ListingCardData;

function renderCard(currency?: string) {
  const card = <ListingCard listing={LISTING} inCart={false} redirectTo="/marketplace" />;
  renderWithRemix(
    [
      {
        path: "/marketplace",
        Component: () =>
          currency ? <CurrencyProvider currency={currency}>{card}</CurrencyProvider> : card,
      },
    ],
    { url: "/marketplace" },
  );
}

describe("prices in the platform's settlement currency", () => {
  it("formats cents with the currency's symbol", () => {
    expect(formatMoney(2500)).toBe("$25.00");
    expect(formatMoney(2500, "eur")).toBe("€25.00");
    expect(formatMoney(123450, "gbp")).toBe("£1,234.50");
    expect(formatMoney(50, "chf")).toMatch(/^CHF\s0\.50$/);
  });

  it("shows a listing's price in the currency the root provides (usd without one)", () => {
    renderCard("eur");
    expect(screen.getByTestId("listing-price")).toHaveTextContent("€25.00");
    cleanup();
    renderCard();
    expect(screen.getByTestId("listing-price")).toHaveTextContent("$25.00");
  });
});

describe("the creator's figures in the settlement currency", () => {
  it("shows the dashboard's earnings and the price field's label in the currency the root provides", async () => {
    const { StatCards } = await import("~/features/studio/workspace/components/stat-cards");
    render(
      <CurrencyProvider currency="eur">
        <StatCards
          stats={{ totalImages: 1, totalStylized: 2, totalListed: 1, totalEarnings: 21.25 }}
        />
      </CurrencyProvider>,
    );
    expect(screen.getByText("€21.25")).toBeInTheDocument();
    cleanup();
    render(
      <StatCards
        stats={{ totalImages: 1, totalStylized: 2, totalListed: 1, totalEarnings: 21.25 }}
      />,
    );
    expect(screen.getByText("$21.25")).toBeInTheDocument();
  });

  it("draws the analytics earnings chart's name and axis in the currency", async () => {
    const { EarningsChart } =
      await import("~/features/market/analytics/components/analytics-chart");
    const days: AnalyticsDay[] = [
      {
        date: "2026-11-25",
        views: 3,
        addsToCart: 1,
        saves: 0,
        sales: 1,
        earnings: "21.25",
        conversion: 0.33,
        testSales: 0,
      },
      {
        date: "2026-11-26",
        views: 0,
        addsToCart: 0,
        saves: 0,
        sales: 0,
        earnings: "0",
        conversion: null,
        testSales: 0,
      },
    ];
    render(
      <CurrencyProvider currency="gbp">
        <EarningsChart days={days} rangeLabel="the last 7 days" />
      </CurrencyProvider>,
    );
    expect(
      screen.getByRole("img", { name: "Earnings per day over the last 7 days: £21.25 in all." }),
    ).toBeInTheDocument();
  });
});
