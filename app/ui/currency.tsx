import { createContext, useContext, type ReactNode } from "react";

/**
 * The platform's settlement currency (CURRENCY) for every price a screen
 * shows: the root loader provides it, components read it with useCurrency()
 * and format with formatMoney(cents, currency). Without a provider (a
 * component rendered alone) it is usd, the default setting.
 */
const CurrencyContext = createContext("usd");

export function CurrencyProvider({
  currency,
  children,
}: {
  currency: string;
  children: ReactNode;
}) {
  return <CurrencyContext.Provider value={currency}>{children}</CurrencyContext.Provider>;
}

export function useCurrency(): string {
  return useContext(CurrencyContext);
}
