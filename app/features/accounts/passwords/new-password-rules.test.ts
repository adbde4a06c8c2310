import { afterEach, describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { plainContext } from "~/infra/call-context.server";
import { HttpError } from "~/infra/errors.server";
import { invoke } from "~/infra/procedure.server";
import { register, signIn } from "~/features/accounts/sessions/procedures.server";
import { resetPassword } from "~/features/accounts/passwords/procedures.server";
import { signResetToken } from "~/features/accounts/passwords/password-reset.server";
import { createUser, setPassword } from "~/features/accounts/users.server";
import { adminCreateUser } from "~/features/admin/procedures/users.server";
import { COMMON_PASSWORD, NEW_PASSWORD_TOO_SHORT } from "~/lib/accounts";
import { createTestAdmin, createTestUser, storedPasswordHash } from "#tests/setup/accounts";
import { testTies } from "#tests/setup/ties";

/** Every way a new password is chosen refuses one under 8 characters and one from the list of common passwords; signing in checks nothing new. */

let address = 0;
const ctx = () =>
  plainContext("https://selfie.example", { ties: testTies, clientIp: `198.51.100.${++address}` });
const registration = getConfig().REGISTRATION;
afterEach(() => {
  (getConfig() as { REGISTRATION: string }).REGISTRATION = registration;
});

async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

const person = { firstName: "Nia", lastName: "New" };

describe("new passwords", () => {
  it("registration refuses a 7-character password and a common one, creating no account", async () => {
    (getConfig() as { REGISTRATION: string }).REGISTRATION = "open";
    const short = await refusal(
      invoke(register, null, { ...person, email: "short@example.com", password: "abc-123" }, ctx()),
    );
    expect(short.status).toBe(400);
    expect(short.fieldErrors).toEqual({ password: [NEW_PASSWORD_TOO_SHORT] });
    expect(NEW_PASSWORD_TOO_SHORT).toBe("Password must be at least 8 characters");

    for (const common of ["password1", "iloveyou", "Sunshine", "qwerty123"]) {
      const error = await refusal(
        invoke(register, null, { ...person, email: "common@example.com", password: common }, ctx()),
      );
      expect(error.status, common).toBe(400);
      expect(error.fieldErrors, common).toEqual({ password: [COMMON_PASSWORD] });
    }
    expect(
      await getDb()
        .selectFrom("users")
        .select("id")
        .where("email", "in", ["short@example.com", "common@example.com"])
        .execute(),
    ).toEqual([]);
  });

  it("a password reset refuses them and keeps the old password", async () => {
    const { user } = await createTestUser();
    const token = signResetToken(getConfig().appSecret, user, new Date());
    expect(
      (await refusal(invoke(resetPassword, null, { token, password: "1234567" }, ctx())))
        .fieldErrors,
    ).toEqual({ password: [NEW_PASSWORD_TOO_SHORT] });
    expect(
      (await refusal(invoke(resetPassword, null, { token, password: "football" }, ctx())))
        .fieldErrors,
    ).toEqual({ password: [COMMON_PASSWORD] });
    expect(await storedPasswordHash(user.id)).toBe(user.password_hash);
  });

  it("the admin's Create user refuses them", async () => {
    const { user: admin } = await createTestAdmin();
    const short = await refusal(
      invoke(
        adminCreateUser,
        admin,
        { ...person, email: "made@example.com", password: "seven77" },
        ctx(),
      ),
    );
    expect(short.fieldErrors).toEqual({ password: [NEW_PASSWORD_TOO_SHORT] });
    const common = await refusal(
      invoke(
        adminCreateUser,
        admin,
        { ...person, email: "made@example.com", password: "baseball" },
        ctx(),
      ),
    );
    expect(common.fieldErrors).toEqual({ password: [COMMON_PASSWORD] });
  });

  it("the user scripts' createUser and setPassword refuse them too", async () => {
    const db = getDb();
    await expect(
      createUser(db, { ...person, email: "script@example.com", password: "short1" }),
    ).rejects.toThrow(NEW_PASSWORD_TOO_SHORT);
    await expect(
      createUser(db, { ...person, email: "script@example.com", password: "trustno1" }),
    ).rejects.toThrow(COMMON_PASSWORD);
    const { user } = await createTestUser();
    await expect(setPassword(db, user.id, "letmein1")).rejects.toThrow(COMMON_PASSWORD);
  });

  it("signing in keeps the 6-character check and its message", async () => {
    const short = await refusal(
      invoke(signIn, null, { email: "someone@example.com", password: "12345" }, ctx()),
    );
    expect(short.fieldErrors).toEqual({ password: ["Password must be at least 6 characters"] });
    const sixChars = await refusal(
      invoke(signIn, null, { email: "someone@example.com", password: "123456" }, ctx()),
    );
    expect(sixChars.status).toBe(401);
  });
});
