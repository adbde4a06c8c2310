// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import { MyDiscounts } from "~/features/market/discounts/components/my-discounts";
import { DiscountForm } from "~/features/market/discounts/components/discount-form";

afterEach(cleanup);

describe("the Discounts screen's parts", () => {
  it("lists each code with what it takes off, where, when and its uses, each with its own Delete", () => {
    renderWithRemix(
      <MyDiscounts
        discounts={[
          {
            id: "a",
            code: "LAUNCH",
            percentOff: 20,
            amountOff: null,
            listingIds: ["l1"],
            startsAt: null,
            endsAt: "2027-01-31T23:59:59.999Z",
            maxRedemptions: 50,
            redemptions: 3,
          },
          {
            id: "b",
            code: "FIVER",
            percentOff: null,
            amountOff: "5",
            listingIds: null,
            startsAt: "2027-02-01T00:00:00.000Z",
            endsAt: null,
            maxRedemptions: null,
            redemptions: 0,
          },
        ]}
        titleOf={(id) => (id === "l1" ? "Cartoon me" : "?")}
      />,
      { url: "/discounts" },
    );
    const [first, second] = screen.getAllByTestId("my-discount");
    expect(first).toHaveTextContent(
      "LAUNCH20% off · Cartoon me · until 2027-01-31 · used 3 of 50 times",
    );
    expect(second).toHaveTextContent(
      "FIVER$5 off · all your listings · from 2027-02-01 · used 0 times",
    );
    expect(within(first).getByRole("button", { name: "Delete LAUNCH" })).toBeInTheDocument();
  });

  it("shows a refusal beside its field, described by it, and keeps what was typed", () => {
    renderWithRemix(
      <DiscountForm
        listings={[{ id: "l1", title: "Cartoon me", price: "6" }]}
        errors={{ code: ['A code is 3–32 letters, digits, "-" or "_".'] }}
        sent={{ code: "a b", percentOff: "10", listingIds: "l1" }}
      />,
      { url: "/discounts" },
    );
    const code = screen.getByLabelText("Code");
    expect(code).toHaveValue("a b");
    expect(code).toHaveAttribute("aria-invalid", "true");
    expect(code).toHaveAccessibleDescription(
      '3–32 letters, digits, "-" or "_". Buyers type it at the cart. A code is 3–32 letters, digits, "-" or "_".',
    );
    expect(screen.getByLabelText("Percent off")).toHaveValue("10");
    expect(screen.getByRole("checkbox", { name: /Cartoon me/ })).toBeChecked();
  });
});
