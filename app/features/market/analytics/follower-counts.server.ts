import { sql } from "kysely";
import type { DB } from "~/infra/db.server";
import type { AnalyticsFollowers } from "~/features/market/analytics/analytics";

/**
 * A creator's followers for their analytics: counts only, never an address.
 * `confirmed` is every confirmed follow; `newInRange` those confirmed within
 * [fromStamp, untilStamp) and still following (an ended follow is deleted,
 * so it counts in neither). One read of the creator's follows (the index
 * (creator_id, email_key)).
 */
export async function followerCountsOf(
  db: DB,
  creatorId: string,
  fromStamp: string,
  untilStamp: string,
): Promise<AnalyticsFollowers> {
  const row = await db
    .selectFrom("follows")
    .select([
      (eb) => eb.fn.countAll<number>().as("confirmed"),
      sql<number>`coalesce(sum(case when confirmed_at >= ${fromStamp} and confirmed_at < ${untilStamp} then 1 else 0 end), 0)`.as(
        "new_in_range",
      ),
    ])
    .where("creator_id", "=", creatorId)
    .where("status", "=", "confirmed")
    .executeTakeFirstOrThrow();
  return { confirmed: Number(row.confirmed), newInRange: Number(row.new_in_range) };
}
