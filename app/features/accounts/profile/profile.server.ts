import type { UserRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { isUniqueViolation } from "~/infra/database-errors.server";
import { HttpError } from "~/infra/errors.server";
import type { AccountPatch } from "~/features/accounts/profile/profile-schemas";
import { HANDLE_TAKEN_MESSAGE } from "~/features/accounts/profile/profile-schemas";

/** 409 for a handle someone else has: the API's `{message}`, and the form's field error. */
export const handleTaken = () =>
  new HttpError(409, HANDLE_TAKEN_MESSAGE, { handle: [HANDLE_TAKEN_MESSAGE] });

const isHandleUniqueViolation = (error: unknown) =>
  isUniqueViolation(error, { table: "users", column: "handle" });

/**
 * Changes the fields given (the others stay as they are) and answers the
 * updated row. A handle another account has is a 409 and changes nothing;
 * the unique index settles two accounts asking for the same handle at once.
 */
export async function updateProfile(
  db: DB,
  user: UserRow,
  patch: AccountPatch,
  now: Date,
): Promise<UserRow> {
  const changes: Partial<Pick<UserRow, "first_name" | "last_name" | "handle" | "bio">> = {};
  if (patch.firstName !== undefined) changes.first_name = patch.firstName;
  if (patch.lastName !== undefined) changes.last_name = patch.lastName;
  if (patch.handle !== undefined) changes.handle = patch.handle;
  if (patch.bio !== undefined) changes.bio = patch.bio;
  if (Object.keys(changes).length === 0) return user;
  if (changes.handle) {
    const holder = await db
      .selectFrom("users")
      .select("id")
      .where("handle", "=", changes.handle)
      .executeTakeFirst();
    if (holder && holder.id !== user.id) throw handleTaken();
  }
  try {
    return await db
      .updateTable("users")
      .set({ ...changes, updated_at: now.toISOString() })
      .where("id", "=", user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isHandleUniqueViolation(error)) throw handleTaken();
    throw error;
  }
}
