import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS } from "~/features/accounts/sessions/login-throttle.server";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { apiRoutes } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";

/**
 * Every check of the current password (the password change, the email
 * change, the erasure of one's own account) goes through the sign-in throttle
 * of the account's email: a stolen session cannot guess on without end.
 */

const { accountRoute, emailRoute, passwordRoute } = apiRoutes({
  accountRoute: "/api/account",
  emailRoute: "/api/account/email",
  passwordRoute: "/api/account/password",
});

const clientOf = (address: string) => ({ clientIp: address, nonce: "test", ties: testTies });

const erase = (token: string, password: string, address: string) =>
  callRoute(
    accountRoute.action,
    makeRequest("/api/account", { method: "DELETE", json: { password }, token }),
    {},
    clientOf(address),
  );

const changeEmail = (token: string, password: string, address: string) =>
  callRoute(
    emailRoute.action,
    makeRequest("/api/account/email", {
      json: { email: "elsewhere@example.com", password },
      token,
    }),
    {},
    clientOf(address),
  );

const changePassword = (token: string, currentPassword: string, address: string) =>
  callRoute(
    passwordRoute.action,
    makeRequest("/api/account/password", {
      json: { currentPassword, newPassword: "a-brand-new-secret" },
      token,
    }),
    {},
    clientOf(address),
  );

const checks = { erase, changeEmail, changePassword };

describe("current-password checks", () => {
  for (const [name, check] of Object.entries(checks)) {
    it(`${name}: wrong passwords count toward the sign-in limits; past them even the right one is a 429 with Retry-After, and nothing changes`, async () => {
      const { user, token } = await createTestUser();
      const address = `198.51.100.${Object.keys(checks).indexOf(name) + 10}`;
      for (let i = 0; i < MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS; i++) {
        expect((await check(token, "not-my-password", address)).status).toBe(400);
      }
      const limited = await check(token, TEST_PASSWORD, address);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect((await limited.json()).message).toMatch(/^Too many wrong passwords/);
      const row = await rowWhere("users", ["email", "password_hash", "erased_at"], "id", user.id);
      expect(row.email).toBe(user.email);
      expect(row.erased_at).toBeNull();
      expect(await rowsWhere("email_changes", "user_id", user.id)).toEqual([]);
      // The failures are the sign-in's: signing in from that address waits too.
      const failures = await getDb()
        .selectFrom("auth_failures")
        .select("bucket")
        .where("bucket", "like", "email:%")
        .execute();
      expect(failures.length).toBeGreaterThanOrEqual(MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS);
    });
  }
});
