import { sql } from "kysely";
import type { DB } from "~/server/db.server";
import type { AdminStats } from "~/lib/admin";
import { centsToDollarAmount } from "~/lib/money";

/**
 * The Admin Portal's stat cards: users, users not banned, all uploaded
 * originals, and the platform's revenue, which is the sum of the platform fees
 * in the earnings ledger (0 when nothing has sold).
 */
export async function platformStats(db: DB): Promise<AdminStats> {
  const [users, images, revenue] = await Promise.all([
    db
      .selectFrom("users")
      .select([
        sql<number>`count(*)`.as("total"),
        sql<number>`coalesce(sum(case when banned = 0 then 1 else 0 end), 0)`.as("active"),
      ])
      .executeTakeFirstOrThrow(),
    db.selectFrom("images").select(sql<number>`count(*)`.as("total")).executeTakeFirstOrThrow(),
    db
      .selectFrom("earnings")
      .select(sql<number>`coalesce(sum(platform_fee_cents), 0)`.as("cents"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    totalUsers: Number(users.total),
    activeUsers: Number(users.active),
    totalImages: Number(images.total),
    platformRevenue: centsToDollarAmount(Number(revenue.cents)),
  };
}
