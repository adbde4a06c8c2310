import { describe, expect, it } from "vitest";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { getDb } from "~/infra/db.server";
import { revokeAllCredentials } from "~/features/accounts/sessions/sessions.server";
import { apiRoutes } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";
import { updateWhere } from "#tests/setup/update-where";

const { tokenLogin, tokenUser, tokenLogout, register, apiLogin } = apiRoutes({
  tokenLogin: "/api/token-login",
  tokenUser: "/api/token-user",
  tokenLogout: "/api/token-logout",
  register: "/api/register",
  apiLogin: "/api/login",
});

const login = (json: unknown, ip = "198.51.100.1") =>
  callRoute(
    tokenLogin.action,
    makeRequest("/api/token-login", { json }),
    {},
    { ties: testTies, clientIp: ip },
  );

describe("POST /api/token-login", () => {
  it("answers a token and the user for good credentials", async () => {
    const { user } = await createTestUser({ email: "ada@example.com", firstName: "Ada" });
    const response = await login({ email: "ADA@example.com ", password: TEST_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    const body = await response.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toEqual({
      id: user.id,
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "User",
      profileImageUrl: null,
      createdAt: user.created_at,
      isAdmin: false,
    });
    // The token works, and only its hash is stored.
    const me = await callRoute(
      tokenUser.loader,
      makeRequest("/api/token-user", { token: body.token }),
    );
    expect(me.status).toBe(200);
    expect((await me.json()).id).toBe(user.id);
    const stored = await getDb().selectFrom("api_tokens").select("token_hash").execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(body.token);
  });

  it("answers 401 with 'Invalid email or password' for a wrong password or unknown email", async () => {
    await createTestUser({ email: "bob@example.com" });
    for (const json of [
      { email: "bob@example.com", password: "wrong-password" },
      { email: "nobody@example.com", password: "whatever" },
    ]) {
      const response = await login(json, "198.51.100.2");
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ message: "Invalid email or password" });
    }
  });

  it("answers 400 with field errors for bad input, never a 500", async () => {
    const cases: unknown[] = [
      "{not json",
      "[1,2]",
      "null",
      { email: "nope", password: "123" },
      { email: 5 },
      {},
    ];
    for (const json of cases) {
      const response = await login(json);
      expect(response.status, JSON.stringify(json)).toBe(400);
      const body = await response.json();
      expect(typeof body.message).toBe("string");
    }
    const response = await login({ email: "nope", password: "123" });
    expect((await response.json()).fieldErrors).toEqual({
      email: ["Invalid email address"],
      password: ["Password must be at least 6 characters"],
    });
    const wrongType = await callRoute(
      tokenLogin.action,
      makeRequest("/api/token-login", {
        body: "email=a",
        headers: { "Content-Type": "text/plain" },
      }),
    );
    expect(wrongType.status).toBe(400);
  });

  it("answers 403 for a banned account", async () => {
    const { user } = await createTestUser({ email: "banned@example.com" });
    await updateWhere("users", { banned: 1 }, "id", user.id);
    const response = await login({ email: "banned@example.com", password: TEST_PASSWORD });
    expect(response.status).toBe(403);
  });

  it("rate limits failures per email (429 with Retry-After) and not successes", async () => {
    await createTestUser({ email: "carol@example.com" });
    for (let i = 0; i < 3; i++) {
      expect(
        (await login({ email: "carol@example.com", password: TEST_PASSWORD }, "198.51.100.3"))
          .status,
      ).toBe(200);
    }
    for (let i = 0; i < 5; i++) {
      expect(
        (await login({ email: "carol@example.com", password: "bad-password" }, "198.51.100.3"))
          .status,
      ).toBe(401);
    }
    const limited = await login(
      { email: "carol@example.com", password: TEST_PASSWORD },
      "198.51.100.4",
    );
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await limited.json()).message).toMatch(/Too many failed sign-in attempts/);
  });

  it("rate limits failures per address across emails", async () => {
    for (let i = 0; i < 20; i++) {
      const response = await login(
        { email: `guess${i}@example.com`, password: "bad-password" },
        "198.51.100.9",
      );
      expect(response.status).toBe(401);
    }
    expect(
      (await login({ email: "guess99@example.com", password: "bad-password" }, "198.51.100.9"))
        .status,
    ).toBe(429);
    expect(
      (await login({ email: "guess99@example.com", password: "bad-password" }, "198.51.100.10"))
        .status,
    ).toBe(401);
  });

  it("answers a JSON 405 for GET", async () => {
    const response = await callRoute(tokenLogin.loader, makeRequest("/api/token-login"));
    expect(response.status).toBe(405);
    expect(await response.json()).toEqual({ message: "Method not allowed" });
  });
});

describe("GET /api/token-user and POST /api/token-logout", () => {
  it("answers 401 without a token or with a bad one, even when a valid cookie is also sent", async () => {
    const { cookie } = await createTestUser();
    expect((await callRoute(tokenUser.loader, makeRequest("/api/token-user"))).status).toBe(401);
    const bad = await callRoute(
      tokenUser.loader,
      makeRequest("/api/token-user", { token: "forged", cookie }),
    );
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ message: "Invalid or expired token" });
    const viaCookie = await callRoute(tokenUser.loader, makeRequest("/api/token-user", { cookie }));
    expect(viaCookie.status).toBe(200);
  });

  it("logout ends the token at once", async () => {
    const { token } = await createTestUser();
    const out = await callRoute(
      tokenLogout.action,
      makeRequest("/api/token-logout", { method: "POST", token }),
    );
    expect(out.status).toBe(204);
    expect(
      (await callRoute(tokenUser.loader, makeRequest("/api/token-user", { token }))).status,
    ).toBe(401);
  });

  it("revoking a user's credentials (a ban) ends tokens and sessions", async () => {
    const { user, token, cookie } = await createTestUser();
    await revokeAllCredentials(getDb(), user.id);
    expect(
      (await callRoute(tokenUser.loader, makeRequest("/api/token-user", { token }))).status,
    ).toBe(401);
    expect(
      (await callRoute(tokenUser.loader, makeRequest("/api/token-user", { cookie }))).status,
    ).toBe(401);
  });
});

describe("POST /api/register", () => {
  const newcomer = {
    email: "new@example.com",
    password: "secret-pass",
    firstName: "New",
    lastName: "Comer",
  };

  it("is closed by default", async () => {
    const response = await callRoute(
      register.action,
      makeRequest("/api/register", { json: newcomer }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: "Registration is closed" });
  });

  it("answers 202 when open, the same for an email in use (registration.test.ts follows the mail)", async () => {
    const { getConfig } = await import("~/infra/config.server");
    const config = getConfig();
    const previous = config.REGISTRATION;
    (config as { REGISTRATION: string }).REGISTRATION = "open";
    try {
      const created = await callRoute(
        register.action,
        makeRequest("/api/register", { json: newcomer }),
      );
      expect(created.status).toBe(202);
      const again = await callRoute(
        register.action,
        makeRequest("/api/register", { json: newcomer }),
      );
      expect(again.status).toBe(202);
      expect(await again.json()).toEqual(await created.json());
    } finally {
      (config as { REGISTRATION: string }).REGISTRATION = previous;
    }
  });
});

describe("GET /api/login", () => {
  it("redirects to /auth keeping only a same-site redirectTo", async () => {
    const keep = await callRoute(
      apiLogin.loader,
      makeRequest("/api/login?redirectTo=/marketplace?style=anime"),
    );
    expect(keep.status).toBe(302);
    expect(keep.headers.get("Location")).toBe("/auth?redirectTo=%2Fmarketplace%3Fstyle%3Danime");
    for (const evil of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
    ]) {
      const response = await callRoute(
        apiLogin.loader,
        makeRequest(`/api/login?redirectTo=${encodeURIComponent(evil)}`),
      );
      expect(response.headers.get("Location")).toBe("/auth");
    }
  });
});
