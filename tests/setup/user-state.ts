import { getDb } from "~/infra/db.server";

/** A user's stored account state, as tests check it (vitest only). */

/** The user's stored `banned` flag (0 or 1). */
export async function bannedFlag(userId: string) {
  const row = await getDb()
    .selectFrom("users")
    .select("banned")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.banned;
}

/** When the user's account was erased, or null while it stands. */
export async function erasedAt(userId: string) {
  const row = await getDb()
    .selectFrom("users")
    .select("erased_at")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.erased_at;
}

/** The user's payout account rows (none before onboarding starts). */
export function payoutAccountsOf(userId: string) {
  return getDb().selectFrom("payout_accounts").selectAll().where("user_id", "=", userId).execute();
}
