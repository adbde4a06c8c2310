import { describe, expect, it, vi } from "vitest";
import { COUNTRY_NAMES } from "~/lib/country-names";
import {
  PAYOUT_COUNTRY_SOURCE,
  PAYOUT_COUNTRY_TABLE,
  PLATFORM_COUNTRIES,
  SETTLEMENT_CURRENCY,
  countryChoices,
  countryName,
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

describe("country names: one source on the server and in the browser", () => {
  it("reads every name from the fixed table, never from the runtime's ICU (Intl.DisplayNames, localeCompare)", () => {
    const displayNames = vi.spyOn(Intl, "DisplayNames");
    const compare = vi.spyOn(String.prototype, "localeCompare");
    try {
      const choices = countryChoices();
      expect(choices).toEqual(COUNTRY_NAMES.map(([code, name]) => ({ code, name })));
      for (const [code, name] of COUNTRY_NAMES) expect(countryName(code)).toBe(name);
      expect(countryName("FR")).toBe("France");
      expect(countryName("CI")).toBe("Côte d’Ivoire");
      expect(displayNames).not.toHaveBeenCalled();
      expect(compare).not.toHaveBeenCalled();
    } finally {
      displayNames.mockRestore();
      compare.mockRestore();
    }
  });

  it("lists each code once, in the order of the names", () => {
    const codes = COUNTRY_NAMES.map(([code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    const names = COUNTRY_NAMES.map(([, name]) => name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
  });
});
