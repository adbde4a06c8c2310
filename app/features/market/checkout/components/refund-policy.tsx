import { createContext, useContext, type ReactNode } from "react";

/**
 * The refund policy every buyer is told (the checkout, /terms): refunds on
 * request within REFUND_WINDOW_DAYS of payment. The root loader provides the
 * setting; components read it with useRefundWindowDays(). Without a provider
 * (a component rendered alone) it is 14, the setting's default.
 */
const RefundWindowContext = createContext(14);

export function RefundPolicyProvider({ days, children }: { days: number; children: ReactNode }) {
  return <RefundWindowContext.Provider value={days}>{children}</RefundWindowContext.Provider>;
}

export function useRefundWindowDays(): number {
  return useContext(RefundWindowContext);
}

/** "Refunds within 14 days on request" */
export function refundPolicyText(days: number): string {
  return `Refunds within ${days} ${days === 1 ? "day" : "days"} on request`;
}
