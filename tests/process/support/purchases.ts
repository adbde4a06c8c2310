import { expect } from "@playwright/test";
import type { RunningServer } from "./server-process";

/** Pays a checkout session in the built-in test checkout, as its Pay button does (a 302 onward). */
export async function payInTestCheckout(server: Pick<RunningServer, "fetch">, sessionId: string) {
  const paid = await server.fetch(`/test-checkout/${encodeURIComponent(sessionId)}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "intent=pay",
    redirect: "manual",
  });
  expect(paid.status).toBe(302);
}

/**
 * The data directory is whole: every paid order has its ledger rows and
 * grants, rows and files match both ways, and SQLite's integrity check passes.
 */
export function expectPaidOrdersWhole(server: Pick<RunningServer, "inspect">) {
  const consistency = server.inspect();
  expect(consistency.paidOrdersWithoutLedger).toBe(0);
  expect(consistency.paidOrdersWithoutGrants).toBe(0);
  expect(consistency.missingFiles).toEqual([]);
  expect(consistency.unreferencedFiles).toEqual([]);
  expect(consistency.integrity).toBe("ok");
}
