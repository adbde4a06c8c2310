import { rowWhere, rowsWhere } from "./rows-where";

/** A user's stored account state, as tests check it (vitest only). */

/** The user's stored `banned` flag (0 or 1). */
export async function bannedFlag(userId: string) {
  const row = await rowWhere("users", "banned", "id", userId);
  return row.banned;
}

/** When the user's account was erased, or null while it stands. */
export async function erasedAt(userId: string) {
  const row = await rowWhere("users", "erased_at", "id", userId);
  return row.erased_at;
}

/** The user's payout account rows (none before onboarding starts). */
export function payoutAccountsOf(userId: string) {
  return rowsWhere("payout_accounts", "user_id", userId);
}
