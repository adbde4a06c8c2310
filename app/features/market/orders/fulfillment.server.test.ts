import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { getConfig } from "~/infra/config.server";
import { getDb, openDatabase } from "~/infra/db.server";
import { splitSale } from "~/features/payouts/ledger/earnings.server";
import { fulfillOrder } from "~/features/market/orders/fulfillment.server";
import { createPendingOrder } from "~/features/market/orders/orders.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { downloadGrantsOf, earningsOf } from "#tests/setup/test-checkout";

describe("the revenue split", () => {
  it("always adds up to the price, in whole cents, within half a cent of 85% (property over many prices)", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const prices = [0, 1, 2, 3, 10, 50, 99, 100, 101, 1999, 2500, 7550, 1_000_000];
    for (let i = 0; i < 5000; i++) prices.push(Math.floor(random() * 1_000_000) + 1);
    for (const price of prices) {
      const { creatorCents, platformCents } = splitSale(price);
      expect(Number.isInteger(creatorCents) && Number.isInteger(platformCents)).toBe(true);
      expect(creatorCents + platformCents).toBe(price);
      expect(creatorCents).toBeGreaterThanOrEqual(0);
      expect(platformCents).toBeGreaterThanOrEqual(0);
      expect(Math.abs(creatorCents - price * 0.85)).toBeLessThanOrEqual(0.5 + 1e-9);
    }
  });

  it("rounds exact halves to the even cent (banker's rounding)", () => {
    // 85% of 10 cents is 8.5 -> 8; of 30 cents 25.5 -> 26; of 2500 cents exactly 2125.
    expect(splitSale(10)).toEqual({ creatorCents: 8, platformCents: 2 });
    expect(splitSale(30)).toEqual({ creatorCents: 26, platformCents: 4 });
    expect(splitSale(2500)).toEqual({ creatorCents: 2125, platformCents: 375 });
    expect(splitSale(1999)).toEqual({ creatorCents: 1699, platformCents: 300 });
    expect(() => splitSale(1.5)).toThrow();
  });
});

describe("fulfillment", () => {
  it("writes one grant and one ledger row per item whose sums equal the order total", async () => {
    const creator = await createTestUser();
    const listings = await Promise.all(
      [7, 12.34, 0.99].map((price) => createListing(creator.user.id, { price })),
    );
    const { order } = await createPendingOrder(getDb(), {
      provider: "test",
      customer: { name: "A", email: "a@example.com" },
      listingIds: listings.map((l) => l.listing.id),
      now: new Date(),
    });
    expect((await fulfillOrder(getDb(), order.id, {}, new Date())).outcome).toBe("fulfilled");
    expect((await fulfillOrder(getDb(), order.id, {}, new Date())).outcome).toBe("already-paid");
    const earnings = await earningsOf(order.id);
    expect(earnings).toHaveLength(3);
    expect(earnings.reduce((sum, row) => sum + row.amount_cents + row.platform_fee_cents, 0)).toBe(
      order.total_cents,
    );
    expect(order.total_cents).toBe(700 + 1234 + 99);
    const grants = await downloadGrantsOf(order.id);
    expect(grants).toHaveLength(3);
    for (const grant of grants) {
      expect(grant.max_downloads).toBe(5);
      const days = (Date.parse(grant.expires_at) - Date.parse(grant.created_at)) / 86_400_000;
      expect(days).toBe(7);
      expect(grant.token_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect((await fulfillOrder(getDb(), "no-such-order", {}, new Date())).outcome).toBe(
      "unknown-order",
    );
  });

  it("is exactly once across separate database connections racing (as separate processes would)", async () => {
    const creator = await createTestUser();
    const a = await createListing(creator.user.id, { price: 10 });
    const b = await createListing(creator.user.id, { price: 20 });
    // Four more connections to the same database. On SQLite, with no busy waiting, so contention
    // shows up as SQLITE_BUSY; on PostgreSQL, each a pool of its own, whose writers wait for row locks.
    const postgresUrl = getConfig().DATABASE_URL;
    const others = Array.from({ length: 4 }, () =>
      openDatabase(postgresUrl ?? getConfig().databaseFile),
    );
    if (!postgresUrl) for (const db of others) await sql`pragma busy_timeout = 0`.execute(db);
    try {
      for (let round = 0; round < 5; round++) {
        const { order } = await createPendingOrder(getDb(), {
          provider: "test",
          customer: { name: "R", email: "r@example.com" },
          listingIds: [a.listing.id, b.listing.id],
          now: new Date(),
        });
        const attempt = async (db: (typeof others)[number]): Promise<string> => {
          for (;;) {
            try {
              return (await fulfillOrder(db, order.id, {}, new Date())).outcome;
            } catch (error) {
              if (
                !/SQLITE_BUSY|database is locked/i.test(
                  String((error as Error).message ?? error) +
                    String((error as { code?: string }).code),
                )
              )
                throw error;
              await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
            }
          }
        };
        const outcomes = await Promise.all(
          [...others, ...others, getDb()].map((db) => attempt(db)),
        );
        expect(outcomes.filter((outcome) => outcome === "fulfilled")).toHaveLength(1);
        expect(outcomes.filter((outcome) => outcome === "already-paid")).toHaveLength(
          outcomes.length - 1,
        );
        const earnings = await earningsOf(order.id);
        const grants = await downloadGrantsOf(order.id);
        expect(earnings).toHaveLength(2);
        expect(grants).toHaveLength(2);
      }
    } finally {
      await Promise.all(others.map((db) => db.destroy()));
    }
  });

  it("the database refuses a second ledger row or grant for the same item", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const { order, items } = await createPendingOrder(getDb(), {
      provider: "test",
      customer: { name: "U", email: "u@example.com" },
      listingIds: [listing.id],
      now: new Date(),
    });
    await fulfillOrder(getDb(), order.id, {}, new Date());
    const now = new Date().toISOString();
    await expect(
      getDb()
        .insertInto("earnings")
        .values({
          id: "dup",
          order_item_id: items[0].id,
          order_id: order.id,
          creator_id: creator.user.id,
          listing_id: listing.id,
          amount_cents: 1,
          platform_fee_cents: 0,
          created_at: now,
        })
        .execute(),
    ).rejects.toThrow(/UNIQUE|unique constraint/);
    await expect(
      getDb()
        .insertInto("download_grants")
        .values({
          id: "dup",
          order_item_id: items[0].id,
          order_id: order.id,
          token_hash: "x",
          max_downloads: 1,
          downloads_used: 0,
          expires_at: now,
          created_at: now,
        })
        .execute(),
    ).rejects.toThrow(/UNIQUE|unique constraint/);
  });
});
