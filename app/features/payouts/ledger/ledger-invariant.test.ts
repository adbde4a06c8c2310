import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { testAccountBalanceCents } from "~/infra/payouts/test-payouts.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { onboardTestPayouts, runPayoutJobs, testCheckoutSale } from "#tests/setup/payouts";
import { recordRefund, sharesPartOfRefund } from "~/features/market/orders/refunds.server";
import { closeDispute, openDispute } from "~/features/market/orders/disputes.server";
import { creatorBalance } from "~/features/payouts/ledger/balances.server";
import { setUserStatus } from "~/features/admin/user-status.server";
import { SUPER_ADMIN_ID } from "~/lib/accounts";
import { createDiscount } from "~/features/market/discounts/discounts.server";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";

/**
 * The ledger's invariant under random sequences of purchases (some taxed:
 * buyers in Germany, the UK, the US or nowhere, with TAX=on), partial and
 * full refunds, disputes opened, won and lost, creators onboarding and payout
 * jobs running at random moments: for every order, the creators' shares plus
 * the platform's fees equal its total less its tax and its discount, and
 * that less the part of the refunds not of the tax (tax is never a share); a
 * creator's earned is owed + transferred + held; and once the jobs have run,
 * every payout account holds exactly its creator's transferred and held shares.
 * Creators are banned and unbanned at random moments too (a banned creator's
 * listings cannot be bought, their owed shares are held), and all are unbanned
 * before the end.
 */

/** A small seeded generator (mulberry32), so a failure replays with its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function checkOrders() {
  const db = getDb();
  const orders = await db
    .selectFrom("orders")
    .selectAll()
    .where("status", "in", ["paid", "refunded", "disputed"])
    .execute();
  for (const order of orders) {
    const shares = await rowsWhere("earnings", "order_id", order.id);
    const creators = shares.reduce(
      (sum, row) => sum + row.amount_cents - row.creator_reversed_cents,
      0,
    );
    const platform = shares.reduce(
      (sum, row) => sum + row.platform_fee_cents - row.platform_reversed_cents,
      0,
    );
    const gross = shares.reduce((sum, row) => sum + row.amount_cents + row.platform_fee_cents, 0);
    expect(order.total_cents, `order ${order.id}`).toBe(
      order.subtotal_cents - order.discount_cents + order.tax_cents,
    );
    expect(gross, `order ${order.id}`).toBe(order.total_cents - order.tax_cents);
    expect(creators + platform, `order ${order.id}`).toBe(
      order.total_cents - order.tax_cents - sharesPartOfRefund(order, order.refunded_cents),
    );
    // A full refund gives back the whole total, the tax with it.
    if (order.refunded_cents === order.total_cents) expect(creators + platform).toBe(0);
    for (const row of shares) {
      expect(row.creator_reversed_cents).toBeLessThanOrEqual(row.amount_cents);
      expect(row.platform_reversed_cents).toBeLessThanOrEqual(row.platform_fee_cents);
      expect(row.transfer_reversed_cents).toBeLessThanOrEqual(row.transferred_cents);
      if (row.status === "reversed") expect(row.creator_reversed_cents).toBe(row.amount_cents);
    }
    // A free order (a 100 % code, no tax) has nothing to refund: it stays paid.
    if (order.total_cents > 0)
      expect(order.status === "refunded").toBe(order.refunded_cents === order.total_cents);
  }
}

async function checkCreators(
  creatorIds: string[],
  accounts: Map<string, string>,
  settled: boolean,
) {
  const db = getDb();
  for (const id of creatorIds) {
    const balance = await creatorBalance(db, id, { includeTestSales: true });
    expect(balance.earned).toBe(balance.owed + balance.transferred + balance.held);
    const accountId = accounts.get(id);
    if (!settled || !accountId) continue;
    const shares = await rowsWhere("earnings", "creator_id", id);
    const sent = shares.filter((row) => row.transfer_id !== null);
    const expected = sent.reduce(
      (sum, row) => sum + row.amount_cents - row.creator_reversed_cents,
      0,
    );
    expect(await testAccountBalanceCents(db, accountId), `creator ${id}`).toBe(expected);
    // Settled with an active account: nothing that can be sent is left owed.
    expect(
      shares.filter(
        (row) =>
          row.status === "owed" &&
          row.amount_cents > row.creator_reversed_cents &&
          row.transfer_id === null,
      ),
    ).toEqual([]);
  }
}

describe("the ledger invariant", () => {
  for (const seed of [1, 2, 3]) {
    it(`holds for a random sequence of purchases, refunds and disputes (seed ${seed})`, async () => {
      const next = random(seed);
      const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
      const db = getDb();
      const creators = await Promise.all([0, 1, 2].map(() => createTestUser()));
      const listings: { id: string; creatorId: string }[] = [];
      for (const creator of creators) {
        for (const price of [pick([1, 3, 7]), pick([9.99, 12.5, 25]), pick([0.5, 99.99, 40])]) {
          listings.push({
            id: (await createListing(creator.user.id, { price })).listing.id,
            creatorId: creator.user.id,
          });
        }
      }
      // Each creator has a code of the same text, a percent or an amount off: a purchase may use it.
      for (const creator of creators)
        await createDiscount(db, {
          userId: creator.user.id,
          input:
            next() < 0.5
              ? { code: "RANDOM", percentOff: pick([5, 15, 50, 100]), amountOff: undefined }
              : { code: "RANDOM", amountOff: pick([0.01, 0.5, 1]) },
          now: new Date(),
        });
      const banned = new Set<string>();
      const setStatus = (userId: string, action: "ban" | "unban") =>
        setUserStatus(db, {
          actorId: SUPER_ADMIN_ID,
          userId,
          action,
          now: new Date(),
          includeTestSales: true,
        });
      const accounts = new Map<string, string>();
      const orders: string[] = [];

      for (let step = 0; step < 40; step++) {
        const roll = next();
        const now = new Date();
        const buyable = listings
          .filter((listing) => !banned.has(listing.creatorId))
          .map((listing) => listing.id);
        if ((roll < 0.3 || orders.length === 0) && buyable.length > 0) {
          const count = 1 + Math.floor(next() * 3);
          const chosen = [...new Set(Array.from({ length: count }, () => pick(buyable)))];
          const country = pick(["DE", "GB", "US", undefined]);
          const buyer = { country, tax: true };
          const email = `buyer${seed}-${step}@example.com`;
          // With the code when it takes something off these items (an amount off may be more than a cheap item).
          const sale = await testCheckoutSale(chosen, email, now, {
            ...buyer,
            ...(next() < 0.5 ? { discountCode: "RANDOM" } : {}),
          }).catch((error: { status?: number }) => {
            if (error.status !== 400) throw error;
            return testCheckoutSale(chosen, email, now, buyer);
          });
          orders.push(sale);
        } else if (orders.length === 0) {
          continue;
        } else if (roll < 0.5) {
          const order = await rowWhere("orders", "*", "id", pick(orders));
          const left = order.total_cents - order.refunded_cents;
          const amount = next() < 0.5 ? left : Math.max(1, Math.floor(next() * left));
          await db.transaction().execute((trx) =>
            recordRefund(trx, order.id, {
              refundedTotalCents: order.refunded_cents + amount,
              reason: "random",
              now,
            }),
          );
        } else if (roll < 0.6) {
          const id = pick(orders);
          await db
            .transaction()
            .execute((trx) =>
              openDispute(
                trx,
                id,
                { id: `dp_${step}`, status: "needs_response", amountCents: 0 },
                now,
              ),
            );
        } else if (roll < 0.7) {
          const disputed = await rowsWhere("orders", "status", "disputed");
          if (disputed.length > 0) {
            const order = pick(disputed);
            const status = next() < 0.5 ? "won" : "lost";
            await db.transaction().execute((trx) =>
              closeDispute(
                trx,
                order.id,
                {
                  id: order.dispute_id!,
                  status,
                  amountCents: order.total_cents - order.refunded_cents,
                },
                now,
              ),
            );
          }
        } else if (roll < 0.8) {
          const creator = pick(creators);
          if (!accounts.has(creator.user.id))
            accounts.set(creator.user.id, await onboardTestPayouts(creator.user));
        } else if (roll < 0.86) {
          const creator = pick(creators).user.id;
          const action = banned.has(creator) ? "unban" : "ban";
          await setStatus(creator, action);
          if (action === "ban") banned.add(creator);
          else banned.delete(creator);
        } else {
          await runPayoutJobs();
        }
        await checkOrders();
        await checkCreators(
          creators.map((creator) => creator.user.id),
          accounts,
          false,
        );
      }
      for (const creator of banned) await setStatus(creator, "unban");
      await runPayoutJobs();
      await checkOrders();
      await checkCreators(
        creators.map((creator) => creator.user.id),
        accounts,
        true,
      );
    });
  }
});
