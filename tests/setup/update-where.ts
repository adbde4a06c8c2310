import type { Updateable } from "kysely";
import type { Database } from "#db/schema";
import { getDb } from "~/infra/db.server";

type Table = keyof Database;

/**
 * Sets `values` on the rows of `table` whose `column` equals `value`, for
 * putting the test database in a state no call makes on its own (a banned
 * user, a withdrawn listing, a date in the past): `await updateWhere("users",
 * { banned: 1 }, "id", user.id)`.
 */
export async function updateWhere<T extends Table>(
  table: T,
  values: Updateable<Database[T]>,
  column: keyof Database[T] & string,
  value: string | number | null,
): Promise<void> {
  // Kysely cannot follow a table chosen by a type parameter; the signature above keeps the call typed.
  await getDb()
    .updateTable(table as "users")
    .set(values as never)
    .where(column as "id", "=", value as never)
    .execute();
}
