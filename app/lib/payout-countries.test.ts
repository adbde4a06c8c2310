import { describe, expect, it } from "vitest";
import {
  PAYOUT_COUNTRY_SOURCE,
  PAYOUT_COUNTRY_TABLE,
  PLATFORM_COUNTRIES,
  SETTLEMENT_CURRENCY,
  countryChoices,
  isSettlementCurrency,
  normalizeCountry,
  payoutCountryRule,
} from "~/lib/payout-countries";

describe("payout countries (Stripe's cross-border payout rules)", () => {
  it("is one table that names its source and the date it was read", () => {
    expect(PAYOUT_COUNTRY_SOURCE).toEqual({
      title: expect.stringContaining("Cross-border payouts"),
      url: "https://docs.stripe.com/connect/cross-border-payouts",
      read: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    const row = (country: string) => PAYOUT_COUNTRY_TABLE.find((r) => r.country === country);
    expect(row("US")).toEqual({ country: "US", settlementCurrency: "usd", region: "US" });
    expect(row("GB")).toEqual({ country: "GB", settlementCurrency: "gbp", region: "UK" });
    expect(row("NO")).toEqual({ country: "NO", settlementCurrency: "nok", region: "EEA" });
    expect(row("BG")).toEqual({ country: "BG", settlementCurrency: "eur", region: "EEA" });
    expect(row("AU")).toEqual({ country: "AU", settlementCurrency: "aud", region: null });
    // Stripe opens no accounts in Iceland; Japan and India are outside the cross-border regions.
    for (const country of ["IS", "JP", "IN", "NG", "BR"]) expect(row(country)).toBeUndefined();
    expect(new Set(PAYOUT_COUNTRY_TABLE.map((r) => r.country)).size).toBe(
      PAYOUT_COUNTRY_TABLE.length,
    );
    // Everything else is read from the table.
    expect(PLATFORM_COUNTRIES).toEqual(PAYOUT_COUNTRY_TABLE.map((r) => r.country));
    for (const { country, settlementCurrency, region } of PAYOUT_COUNTRY_TABLE) {
      expect(SETTLEMENT_CURRENCY[country]).toBe(settlementCurrency);
      expect(payoutCountryRule("US", country).payable).toBe(region !== null);
      expect(payoutCountryRule(country, "US").payable).toBe(region !== null);
    }
  });

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
