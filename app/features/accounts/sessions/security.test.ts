import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { invoke } from "~/infra/procedure.server";
import { plainContext } from "~/infra/call-context.server";
import { signOutEverywhereElse } from "~/features/accounts/sessions/security.procedures.server";
import { createApiToken, createWebSession } from "~/features/accounts/sessions/sessions.server";
import { getWebUser, sessionCookie } from "~/web/auth.server";
import { callRoute, makeRequest, ORIGIN } from "#tests/setup/requests";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { apiRoutes } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";
import { rowWhere } from "#tests/setup/rows-where";

const { accountPassword, accountSessions, accountSession, tokenLogin, tokenUser } = apiRoutes({
  accountPassword: "/api/account/password",
  accountSessions: "/api/account/sessions",
  accountSession: "/api/account/sessions/{id}",
  tokenLogin: "/api/token-login",
  tokenUser: "/api/token-user",
});

/** The password change and the sessions list with Revoke, through their /api routes, on a temporary database. */

const CHROME_ON_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

type SessionEntry = {
  id: string;
  kind: "web" | "token";
  createdAt: string;
  lastUsedAt: string | null;
  userAgent: string | null;
  current: boolean;
};

async function sessionsOf(auth: { token?: string; cookie?: string }): Promise<SessionEntry[]> {
  const response = await callRoute(
    accountSessions.loader,
    makeRequest("/api/account/sessions", auth),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as SessionEntry[];
}

const tokenWorks = async (token: string) =>
  (await callRoute(tokenUser.loader, makeRequest("/api/token-user", { token }))).status === 200;
const cookieWorks = async (cookie: string) =>
  (await getWebUser(makeRequest("/dashboard", { cookie }))) !== null;

/** A second web session of the user (another browser), as a Cookie header. */
async function anotherBrowser(userId: string, userAgent: string | null = null) {
  const { secret } = await createWebSession(getDb(), userId, 30, new Date(), userAgent);
  return (await sessionCookie().serialize(secret)).split(";")[0];
}

const changePassword = (auth: { token?: string; cookie?: string }, json: unknown) =>
  callRoute(
    accountPassword.action,
    makeRequest("/api/account/password", { ...auth, json }),
    {},
    { ties: testTies, clientIp: "198.51.100.40" },
  );

const revoke = (auth: { token?: string; cookie?: string }, id: string) =>
  callRoute(
    accountSession.action,
    makeRequest(`/api/account/sessions/${encodeURIComponent(id)}`, { ...auth, method: "DELETE" }),
    { id },
  );

describe("GET /api/account/sessions", () => {
  it("lists the user's web sessions and tokens by public ids (never the stored hashes), the browser each was made from, and marks the caller's", async () => {
    const db = getDb();
    const { user, token, cookie } = await createTestUser({ email: "lina@example.com" });
    const login = await callRoute(
      tokenLogin.action,
      makeRequest("/api/token-login", {
        json: { email: "lina@example.com", password: TEST_PASSWORD },
        headers: { "User-Agent": CHROME_ON_LINUX },
      }),
    );
    const signedInToken = ((await login.json()) as { token: string }).token;
    await createTestUser(); // someone else's sessions are not listed

    const byToken = await sessionsOf({ token: signedInToken });
    expect(byToken).toHaveLength(3);
    expect(byToken.map((entry) => entry.kind).sort()).toEqual(["token", "token", "web"]);
    const current = byToken.filter((entry) => entry.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ kind: "token", userAgent: CHROME_ON_LINUX });
    for (const entry of byToken) {
      expect(Object.keys(entry).sort()).toEqual([
        "createdAt",
        "current",
        "id",
        "kind",
        "lastUsedAt",
        "userAgent",
      ]);
    }

    const stored = [
      ...(await db
        .selectFrom("sessions")
        .select("id_hash as hash")
        .where("user_id", "=", user.id)
        .execute()),
      ...(await db
        .selectFrom("api_tokens")
        .select("token_hash as hash")
        .where("user_id", "=", user.id)
        .execute()),
    ].map((row) => row.hash);
    const body = JSON.stringify(byToken);
    for (const hash of stored) expect(body).not.toContain(hash);
    for (const secret of [token, signedInToken]) expect(body).not.toContain(secret);

    const byCookie = await sessionsOf({ cookie });
    expect(byCookie.filter((entry) => entry.current).map((entry) => entry.kind)).toEqual(["web"]);
    expect(byCookie.map((entry) => entry.id).sort()).toEqual(
      byToken.map((entry) => entry.id).sort(),
    );
  });
});

describe("DELETE /api/account/sessions/{id}", () => {
  it("ends a web session: it goes to sign-in from its next request, and the others keep working", async () => {
    const { user, token, cookie } = await createTestUser();
    const second = await anotherBrowser(user.id);
    expect(await cookieWorks(second)).toBe(true);
    const entries = await sessionsOf({ cookie });
    const target = entries.find((entry) => entry.kind === "web" && !entry.current)!;

    const response = await revoke({ cookie }, target.id);
    expect(response.status).toBe(204);
    expect(await cookieWorks(second)).toBe(false);
    expect(await cookieWorks(cookie)).toBe(true);
    expect(await tokenWorks(token)).toBe(true);
    expect((await sessionsOf({ cookie })).map((entry) => entry.id)).not.toContain(target.id);
  });

  it("ends an API token: it answers 401 from its next request", async () => {
    const { user, token, cookie } = await createTestUser();
    const { token: other } = await createApiToken(getDb(), user.id, 30);
    const target = (await sessionsOf({ token: other })).find((entry) => entry.current)!;

    expect((await revoke({ token }, target.id)).status).toBe(204);
    expect(await tokenWorks(other)).toBe(false);
    const after = await callRoute(
      accountSessions.loader,
      makeRequest("/api/account/sessions", { token: other }),
    );
    expect(after.status).toBe(401);
    expect(await tokenWorks(token)).toBe(true);
    expect(await cookieWorks(cookie)).toBe(true);
  });

  it("ends the caller's own token when asked to", async () => {
    const { token } = await createTestUser();
    const own = (await sessionsOf({ token })).find((entry) => entry.current)!;
    expect((await revoke({ token }, own.id)).status).toBe(204);
    expect(await tokenWorks(token)).toBe(false);
  });

  it("answers 404 for an id that is not one of the user's, and ends nothing", async () => {
    const owner = await createTestUser();
    const stranger = await createTestUser();
    const ownersSession = (await sessionsOf({ cookie: owner.cookie })).find(
      (entry) => entry.current,
    )!;
    for (const id of [ownersSession.id, "no-such-id"]) {
      const response = await revoke({ token: stranger.token }, id);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: "No such session or token" });
    }
    // The stored hash is not an id either.
    const hash = (await rowWhere("api_tokens", "token_hash", "user_id", owner.user.id)).token_hash;
    expect((await revoke({ token: owner.token }, hash)).status).toBe(404);
    expect(await cookieWorks(owner.cookie)).toBe(true);
    expect(await tokenWorks(owner.token)).toBe(true);
  });
});

describe("POST /api/account/password", () => {
  it("changes the password and ends every other web session and token; the caller's token keeps working", async () => {
    const { user, token, cookie } = await createTestUser({ email: "pat@example.com" });
    const { token: otherToken } = await createApiToken(getDb(), user.id, 30);
    const response = await changePassword(
      { token },
      { currentPassword: TEST_PASSWORD, newPassword: "a-brand-new-secret" },
    );
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");

    expect(await tokenWorks(token)).toBe(true);
    expect(await tokenWorks(otherToken)).toBe(false);
    expect(await cookieWorks(cookie)).toBe(false);
    expect((await sessionsOf({ token })).map((entry) => entry.current)).toEqual([true]);

    const signIn = (password: string) =>
      callRoute(
        tokenLogin.action,
        makeRequest("/api/token-login", { json: { email: "pat@example.com", password } }),
        {},
        { ties: testTies, clientIp: "198.51.100.41" },
      );
    expect((await signIn(TEST_PASSWORD)).status).toBe(401);
    expect((await signIn("a-brand-new-secret")).status).toBe(200);
  });

  it("keeps the caller's web session when the change is made signed in by cookie", async () => {
    const { user, token, cookie } = await createTestUser();
    const second = await anotherBrowser(user.id);
    const response = await changePassword(
      { cookie },
      { currentPassword: TEST_PASSWORD, newPassword: "a-brand-new-secret" },
    );
    expect(response.status).toBe(204);
    expect(await cookieWorks(cookie)).toBe(true);
    expect(await cookieWorks(second)).toBe(false);
    expect(await tokenWorks(token)).toBe(false);
  });

  it("refuses a wrong current password, a short and a common new one with 400 naming the field, and changes nothing", async () => {
    const { user, token, cookie } = await createTestUser();
    const second = await anotherBrowser(user.id);
    const before = await rowWhere("users", ["password_hash", "updated_at"], "id", user.id);
    for (const [json, field, message] of [
      [
        { currentPassword: "not-my-password", newPassword: "a-brand-new-secret" },
        "currentPassword",
        "The current password is not correct",
      ],
      [
        { currentPassword: TEST_PASSWORD, newPassword: "short" },
        "newPassword",
        "Password must be at least 8 characters",
      ],
      [
        { currentPassword: TEST_PASSWORD, newPassword: "qwerty123" },
        "newPassword",
        "This password is one of the most common and easy to guess. Please choose another.",
      ],
      [
        { currentPassword: "", newPassword: "a-brand-new-secret" },
        "currentPassword",
        "Enter your current password",
      ],
      [{ newPassword: "a-brand-new-secret" }, "currentPassword", "Enter your current password"],
    ] as const) {
      const response = await changePassword({ token }, json);
      expect(response.status, JSON.stringify(json)).toBe(400);
      const body = (await response.json()) as {
        message: string;
        fieldErrors: Record<string, string[]>;
      };
      expect(body.fieldErrors[field]).toEqual([message]);
    }
    expect(await rowWhere("users", ["password_hash", "updated_at"], "id", user.id)).toEqual(before);
    for (const working of [cookie, second]) expect(await cookieWorks(working)).toBe(true);
    expect(await tokenWorks(token)).toBe(true);
  });
});

describe("signOutEverywhereElse", () => {
  it("ends every other web session and token of the user, and nobody else's", async () => {
    const { user, token, cookie } = await createTestUser();
    const second = await anotherBrowser(user.id);
    const stranger = await createTestUser();
    const secret = await sessionCookie().parse(cookie);
    await invoke(
      signOutEverywhereElse,
      user,
      {},
      plainContext(ORIGIN, { ties: testTies, webSessionSecret: secret }),
    );
    expect(await cookieWorks(cookie)).toBe(true);
    expect(await cookieWorks(second)).toBe(false);
    expect(await tokenWorks(token)).toBe(false);
    expect(await cookieWorks(stranger.cookie)).toBe(true);
    expect(await tokenWorks(stranger.token)).toBe(true);
  });
});
