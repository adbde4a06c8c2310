import { sql } from "kysely";
import type { DB } from "~/infra/db.server";
import type { AdminStats } from "~/features/admin/types";
import { centsToDollarAmount } from "~/lib/money";
import type { SalesScope } from "~/features/payouts/public.server";

/**
 * The Admin Portal's stat cards: users, users not banned, all uploaded
 * originals, and the platform's revenue, which is the sum of the platform fees
 * in the earnings ledger (0 when nothing has sold; test-checkout sales only
 * when the scope includes them).
 */
export async function platformStats(db: DB, scope: SalesScope): Promise<AdminStats> {
  const [users, images, revenue] = await Promise.all([
    db
      .selectFrom("users")
      .select([
        sql<number>`count(*)`.as("total"),
        sql<number>`coalesce(sum(case when banned = 0 then 1 else 0 end), 0)`.as("active"),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("images")
      .select(sql<number>`count(*)`.as("total"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("earnings")
      .select(
        sql<number>`coalesce(sum(platform_fee_cents - platform_reversed_cents), 0)`.as("cents"),
      )
      .$if(!scope.includeTestSales, (qb) => qb.where("test_mode", "=", 0))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    totalUsers: Number(users.total),
    activeUsers: Number(users.active),
    totalImages: Number(images.total),
    platformRevenue: centsToDollarAmount(Number(revenue.cents)),
  };
}
