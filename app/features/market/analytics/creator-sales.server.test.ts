import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { loader as monitorPage } from "~/routes/_market+/payment-monitor";
import { recentSalesOf } from "~/features/market/analytics/creator-sales.server";
import type { CreatorSale } from "~/features/market/types";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { insertSale } from "#tests/setup/ledger-fixtures";
import { updateWhere } from "#tests/setup/update-where";

/** The payment monitor for creators: their latest sales and each payment's state, without the buyers' details. */

async function saleAt(creatorId: string, paidAt: string, order: Record<string, unknown> = {}) {
  const { orderId } = await insertSale(creatorId, { amountCents: 2125, feeCents: 375 });
  await updateWhere("orders", { paid_at: paidAt, ...order }, "id", orderId);
  return orderId;
}

describe("a creator's recent sales", () => {
  it("lists the creator's paid sales newest first, each with its payment's state, and nobody else's", async () => {
    const { user } = await createTestUser();
    const { user: other } = await createTestUser();
    await saleAt(user.id, "2026-11-20T10:00:00.000Z");
    await saleAt(user.id, "2026-11-21T10:00:00.000Z", { status: "refunded", refunded_cents: 2500 });
    await saleAt(user.id, "2026-11-22T10:00:00.000Z", { refunded_cents: 1000 });
    await saleAt(user.id, "2026-11-23T10:00:00.000Z", {
      status: "disputed",
      dispute_status: "needs_response",
    });
    // A checkout that never paid is not a sale; another creator's sale is theirs.
    await saleAt(user.id, "2026-11-24T10:00:00.000Z", { status: "pending", paid_at: null });
    await saleAt(other.id, "2026-11-25T10:00:00.000Z");

    const sales = await recentSalesOf(getDb(), user.id);
    expect(sales.map((sale) => [sale.paidAt.slice(0, 10), sale.state])).toEqual([
      ["2026-11-23", "disputed"],
      ["2026-11-22", "partly refunded"],
      ["2026-11-21", "refunded"],
      ["2026-11-20", "paid"],
    ]);
    expect(sales[0]).toMatchObject({
      title: "Anime Style Selfie",
      style: "anime",
      priceCents: 2500,
      currency: "usd",
      testCheckout: true,
    });
    // Only what the creator needs: no buyer's name, email or session.
    expect(Object.keys(sales[0]!).sort()).toEqual([
      "currency",
      "id",
      "paidAt",
      "priceCents",
      "state",
      "style",
      "testCheckout",
      "title",
    ]);
    expect(await recentSalesOf(getDb(), user.id, 2)).toHaveLength(2);
  });

  it("are on the signed-in creator's payment monitor, with or without a session id", async () => {
    const { user, cookie } = await createTestUser();
    await saleAt(user.id, "2026-11-26T09:00:00.000Z");
    const page = await callRoute(monitorPage, makeRequest("/payment-monitor", { cookie }));
    expect(page.status).toBe(200);
    const { sales } = (await page.json()) as { sales: CreatorSale[] };
    expect(sales).toHaveLength(1);
    expect(sales[0]).toMatchObject({ state: "paid", paidAt: "2026-11-26T09:00:00.000Z" });
    const { cookie: nobody } = await createTestUser();
    const empty = await callRoute(
      monitorPage,
      makeRequest("/payment-monitor?session_id=cs_unknown", { cookie: nobody }),
    );
    expect(((await empty.json()) as { sales: CreatorSale[] }).sales).toEqual([]);
  });
});
