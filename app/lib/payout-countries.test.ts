import { describe, expect, it } from "vitest";
import {
  PLATFORM_COUNTRIES,
  SETTLEMENT_CURRENCY,
  countryChoices,
  isSettlementCurrency,
  normalizeCountry,
  payoutCountryRule,
} from "~/lib/payout-countries";

describe("payout countries (Stripe's cross-border payout rules)", () => {
  it("pays at home under the full agreement, across the region under the recipient agreement", () => {
    expect(payoutCountryRule("US", "US")).toEqual({
      payable: true,
      serviceAgreement: "full",
      crossBorder: false,
    });
    expect(payoutCountryRule("US", "FR")).toEqual({
      payable: true,
      serviceAgreement: "recipient",
      crossBorder: true,
    });
    expect(payoutCountryRule("DE", "CA")).toEqual({
      payable: true,
      serviceAgreement: "recipient",
      crossBorder: true,
    });
    expect(payoutCountryRule("GB", "CH")).toMatchObject({
      payable: true,
      serviceAgreement: "recipient",
    });
  });

  it("refuses outside the region, and anything but home for a platform outside it, with a sentence", () => {
    expect(payoutCountryRule("US", "NG")).toEqual({
      payable: false,
      reason: expect.stringMatching(/^Stripe cannot pay creators in Nigeria from this platform/),
    });
    expect(payoutCountryRule("US", "IN")).toMatchObject({ payable: false });
    expect(payoutCountryRule("AU", "US")).toEqual({
      payable: false,
      reason: expect.stringContaining("a platform in Australia can only pay creators in Australia"),
    });
    expect(payoutCountryRule("AU", "AU")).toMatchObject({
      payable: true,
      serviceAgreement: "full",
    });
  });

  it("knows each platform country's settlement currency, and the countries a creator chooses from", () => {
    expect(PLATFORM_COUNTRIES).toContain("US");
    expect(SETTLEMENT_CURRENCY.FR).toBe("eur");
    expect(isSettlementCurrency("GB", "gbp")).toBe(true);
    expect(isSettlementCurrency("GB", "usd")).toBe(false);
    expect(normalizeCountry(" fr ")).toBe("FR");
    expect(normalizeCountry("XX")).toBeNull();
    expect(normalizeCountry(42)).toBeNull();
    const choices = countryChoices();
    expect(choices.length).toBeGreaterThan(240);
    expect(choices.find((choice) => choice.code === "DE")?.name).toBe("Germany");
  });
});
