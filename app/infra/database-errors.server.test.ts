import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { isUniqueViolation } from "~/infra/database-errors.server";
import { createTestUser } from "#tests/setup/accounts";

/** The error the current engine (SQLite, or PostgreSQL in the PostgreSQL run) raises for `write`. */
async function refusal(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
  } catch (error) {
    return error;
  }
  throw new Error("the write was not refused");
}

describe("isUniqueViolation", () => {
  it("knows the engine's own refusal by a unique index, and names the column it was on", async () => {
    const db = getDb();
    const first = await createTestUser();
    const second = await createTestUser();
    await db
      .updateTable("users")
      .set({ handle: "email" })
      .where("id", "=", first.user.id)
      .execute();

    const email = await refusal(() =>
      db
        .updateTable("users")
        .set({ email: first.user.email })
        .where("id", "=", second.user.id)
        .execute(),
    );
    expect(isUniqueViolation(email)).toBe(true);
    expect(isUniqueViolation(email, { table: "users", column: "email" })).toBe(true);
    expect(isUniqueViolation(email, { table: "users", column: "handle" })).toBe(false);
    expect(isUniqueViolation(email, { table: "waitlist", column: "email" })).toBe(false);

    // A partial unique index (handles are unique where set), whose value is a column's name.
    const handle = await refusal(() =>
      db.updateTable("users").set({ handle: "email" }).where("id", "=", second.user.id).execute(),
    );
    expect(isUniqueViolation(handle, { table: "users", column: "handle" })).toBe(true);
    expect(isUniqueViolation(handle, { table: "users", column: "email" })).toBe(false);
  });

  it("is false for other refusals and for things that are not errors", async () => {
    const db = getDb();
    const { user } = await createTestUser();
    const notNull = await refusal(() =>
      db
        .updateTable("users")
        .set({ email: null as unknown as string })
        .where("id", "=", user.id)
        .execute(),
    );
    expect(isUniqueViolation(notNull)).toBe(false);
    expect(isUniqueViolation(new Error("UNIQUE constraint failed: users.email"))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
    expect(isUniqueViolation("23505")).toBe(false);
  });
});
