import { sql } from "kysely";
import type { RawBuilder, SqlBool } from "kysely";
import type { DB } from "~/infra/db.server";
import type { AdminUser } from "~/features/admin/types";
import { centsToDollarAmount } from "~/lib/money";
import type { SalesScope } from "~/features/payouts/public.server";

/**
 * The User Management table: every user with the count of originals they
 * uploaded and their creator earnings (the sum of their share in the ledger;
 * test-checkout sales only when the scope includes them).
 */

/** Escapes LIKE's wildcards so a search for "50%" or "a_b" means those characters. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function adminUserQuery(db: DB, scope: SalesScope) {
  return db.selectFrom("users").select((eb) => [
    "users.id",
    "users.email",
    "users.first_name",
    "users.last_name",
    "users.profile_image_url",
    "users.created_at",
    "users.banned",
    "users.erased_at",
    eb
      .selectFrom("images")
      .select(sql<number>`count(*)`.as("n"))
      .whereRef("images.user_id", "=", "users.id")
      .as("image_count"),
    eb
      .selectFrom("earnings")
      .select(
        sql<number>`coalesce(sum(earnings.amount_cents - earnings.creator_reversed_cents), 0)`.as(
          "cents",
        ),
      )
      .whereRef("earnings.creator_id", "=", "users.id")
      .$if(!scope.includeTestSales, (qb) => qb.where("earnings.test_mode", "=", 0))
      .as("earnings_cents"),
  ]);
}

type AdminUserRow = Awaited<
  ReturnType<ReturnType<typeof adminUserQuery>["executeTakeFirstOrThrow"]>
>;

function toAdminUser(row: AdminUserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    profileImageUrl: row.profile_image_url,
    createdAt: row.created_at,
    banned: row.banned === 1,
    imageCount: Number(row.image_count ?? 0),
    earnings: centsToDollarAmount(Number(row.earnings_cents ?? 0)),
    erasedAt: row.erased_at,
  };
}

/**
 * All users, newest first; `q` keeps those whose email, first name, last name
 * or full name contains it, ignoring case.
 */
export async function listUsersForAdmin(
  db: DB,
  { q, ...scope }: { q?: string } & SalesScope,
): Promise<AdminUser[]> {
  let query = adminUserQuery(db, scope);
  // No stored text holds a NUL character (PostgreSQL's text cannot), so a term with one finds nothing.
  if (q?.includes("\0")) return [];
  const term = q?.trim().toLowerCase();
  if (term) {
    const pattern = `%${escapeLike(term)}%`;
    const matches = (column: RawBuilder<unknown>) =>
      sql<SqlBool>`lower(${column}) like ${pattern} escape '\\'`;
    query = query.where((eb) =>
      eb.or([
        matches(sql.ref("users.email")),
        matches(sql.ref("users.first_name")),
        matches(sql.ref("users.last_name")),
        matches(sql`users.first_name || ' ' || users.last_name`),
      ]),
    );
  }
  const rows = await query.orderBy("users.created_at", "desc").orderBy("users.id").execute();
  return rows.map(toAdminUser);
}

export async function findUserForAdmin(
  db: DB,
  userId: string,
  scope: SalesScope,
): Promise<AdminUser | undefined> {
  const row = await adminUserQuery(db, scope).where("users.id", "=", userId).executeTakeFirst();
  return row ? toAdminUser(row) : undefined;
}
