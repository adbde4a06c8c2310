// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { createRemixStub } from "@remix-run/testing";
import { formatMoney } from "~/lib/money";
import { CurrencyProvider } from "~/ui/currency";
import { ListingCard, type ListingCardData } from "~/features/market/components/listing-card";

afterEach(cleanup);

const LISTING = {
  id: "lst1",
  title: "Neon Dream",
  description: "A neon anime portrait",
  style: "anime",
  price: "25",
  priceCents: 2500,
  previewUrl: "/media/previews/abcdefgh.jpg",
  previewWidth: 640,
  creator: { id: "u1", firstName: "Ada" },
  tags: ["neon"],
  licensingEnabled: true,
  createdAt: "2026-11-22T10:00:00.000Z",
} as unknown as ListingCardData;

function renderCard(currency?: string) {
  const card = <ListingCard listing={LISTING} inCart={false} redirectTo="/marketplace" />;
  const Stub = createRemixStub([{ path: "/marketplace", Component: () => (currency ? <CurrencyProvider currency={currency}>{card}</CurrencyProvider> : card) }]);
  render(<Stub initialEntries={["/marketplace"]} />);
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
