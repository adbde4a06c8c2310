import crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import * as auth from "~/routes/_auth+/auth";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import {
  loginKeysOf,
  recordLoginFailure,
} from "~/features/accounts/sessions/login-throttle.server";
import { limitOf, REGISTRATION_RATE_LIMIT } from "~/infra/rate-limit.server";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { apiRoute } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";
import { updateWhere } from "#tests/setup/update-where";

const tokenLogin = apiRoute("/api/token-login");
const registerApi = apiRoute("/api/register");

/** Counts scrypt runs (every password hash and check goes through one), calling the real one. */
function countPasswordChecks() {
  const real = crypto.scrypt;
  const counter = { calls: 0 };
  vi.spyOn(crypto, "scrypt").mockImplementation(((...args: Parameters<typeof crypto.scrypt>) => {
    counter.calls++;
    return (real as (...a: unknown[]) => void)(...args);
  }) as typeof crypto.scrypt);
  return counter;
}

const tokenLoginFrom = (ip: string, json: unknown) =>
  callRoute(
    tokenLogin.action,
    makeRequest("/api/token-login", { json }),
    {},
    { ties: testTies, clientIp: ip },
  );

const webLoginFrom = (ip: string, fields: Record<string, string>) =>
  callRoute(
    auth.action,
    formRequest("/auth", { intent: "login", redirectTo: "/dashboard", ...fields }),
    {},
    { ties: testTies, clientIp: ip },
  );

describe("sign-in throttling", () => {
  it("checks at most 5 of 50 concurrent wrong passwords for one email from one address (POST /api/token-login)", async () => {
    await createTestUser({ email: "flood@example.com" });
    const checks = countPasswordChecks();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        tokenLoginFrom("192.0.2.10", { email: "flood@example.com", password: "wrong-password" }),
      ),
    );
    expect(checks.calls).toBe(5);
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(checks.calls);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50 - checks.calls);
    for (const response of responses.filter((response) => response.status === 429)) {
      expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect((await response.json()).message).toMatch(
        /^Too many failed sign-in attempts\. Try again in \d+ (second|minute)s?\.$/,
      );
    }
  });

  it("checks at most 5 of 50 concurrent wrong passwords through the web sign-in form", async () => {
    await createTestUser({ email: "webflood@example.com" });
    const checks = countPasswordChecks();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        webLoginFrom("192.0.2.11", { email: "webflood@example.com", password: "wrong-password" }),
      ),
    );
    expect(checks.calls).toBe(5);
    const limited = responses.filter((response) => response.status === 429);
    expect(limited).toHaveLength(50 - checks.calls);
    expect(responses.filter((response) => response.status === 401)).toHaveLength(checks.calls);
    expect(Number(limited[0].headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await limited[0].json()).error[""]).toEqual([
      expect.stringMatching(/^Too many failed sign-in attempts/),
    ]);
  });

  it("signs the owner in from a fresh address while 200 failures from 40 other addresses are recorded for the email", async () => {
    const { user } = await createTestUser({ email: "besieged@example.com" });
    const first = Date.now() - 14 * 60 * 1000;
    for (let i = 0; i < 200; i++) {
      const address = `203.0.113.${100 + (i % 40)}`;
      await recordLoginFailure(
        getDb(),
        { id: `seed-${i}`, ...loginKeysOf("besieged@example.com", address), newcomer: i < 40 },
        new Date(first + i * 4_000),
      );
    }
    const attacker = await tokenLoginFrom("203.0.113.100", {
      email: "besieged@example.com",
      password: TEST_PASSWORD,
    });
    expect(attacker.status).toBe(429);
    const owner = await tokenLoginFrom("198.51.100.200", {
      email: "besieged@example.com",
      password: TEST_PASSWORD,
    });
    expect(owner.status).toBe(200);
    expect((await owner.json()).user.id).toBe(user.id);
    const web = await webLoginFrom("198.51.100.201", {
      email: "besieged@example.com",
      password: TEST_PASSWORD,
    });
    expect(web.status).toBe(302);
  });

  it("holds a fresh address for seconds at most after 5 failures from another (no lockout for the window)", async () => {
    await createTestUser({ email: "owner@example.com" });
    for (let i = 0; i < 5; i++) {
      expect(
        (
          await tokenLoginFrom("192.0.2.12", {
            email: "owner@example.com",
            password: "wrong-password",
          })
        ).status,
      ).toBe(401);
    }
    // The attacker's address is out of checks for this email, even with the right password.
    expect(
      (await tokenLoginFrom("192.0.2.12", { email: "owner@example.com", password: TEST_PASSWORD }))
        .status,
    ).toBe(429);
    // A fresh address is held for seconds at most, never for the window.
    const fresh = await tokenLoginFrom("192.0.2.13", {
      email: "owner@example.com",
      password: TEST_PASSWORD,
    });
    if (fresh.status === 429)
      expect(Number(fresh.headers.get("Retry-After"))).toBeLessThanOrEqual(5);
    else expect(fresh.status).toBe(200);
  });

  it("answers a banned account's right password with 403 and leaves nothing counted", async () => {
    const { user } = await createTestUser({ email: "banned-throttle@example.com" });
    await updateWhere("users", { banned: 1 }, "id", user.id);
    for (let i = 0; i < 8; i++) {
      expect(
        (
          await tokenLoginFrom("192.0.2.14", {
            email: "banned-throttle@example.com",
            password: TEST_PASSWORD,
          })
        ).status,
      ).toBe(403);
    }
    expect(await getDb().selectFrom("login_attempts").selectAll().execute()).toEqual([]);
  });
});

describe("registration throttling (REGISTRATION=open)", () => {
  const openRegistration = () => {
    const config = getConfig() as { REGISTRATION: string };
    const previous = config.REGISTRATION;
    config.REGISTRATION = "open";
    return () => {
      config.REGISTRATION = previous;
    };
  };
  const person = (email: string) => ({
    email,
    password: "long-enough",
    firstName: "New",
    lastName: "Person",
  });

  it("allows 5 sign-ups per address per hour through POST /api/register, then 429 with Retry-After", async () => {
    const restore = openRegistration();
    try {
      for (let i = 0; i < limitOf(REGISTRATION_RATE_LIMIT, getConfig()); i++) {
        const response = await callRoute(
          registerApi.action,
          makeRequest("/api/register", { json: person(`api${i}@example.com`) }),
          {},
          { ties: testTies, clientIp: "192.0.2.20" },
        );
        expect(response.status).toBe(202);
      }
      const limited = await callRoute(
        registerApi.action,
        makeRequest("/api/register", { json: person("api-extra@example.com") }),
        {},
        { ties: testTies, clientIp: "192.0.2.20" },
      );
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(3000);
      expect((await limited.json()).message).toMatch(
        /^Too many sign-ups from your network\. Try again in \d+ minutes?\.$/,
      );
      // Another address is not affected.
      const other = await callRoute(
        registerApi.action,
        makeRequest("/api/register", { json: person("api-other@example.com") }),
        {},
        { ties: testTies, clientIp: "192.0.2.21" },
      );
      expect(other.status).toBe(202);
    } finally {
      restore();
    }
  });

  it("counts the web register form the same way", async () => {
    const restore = openRegistration();
    try {
      const registerForm = (email: string) =>
        callRoute(
          auth.action,
          formRequest("/auth", { intent: "register", redirectTo: "/dashboard", ...person(email) }),
          {},
          { ties: testTies, clientIp: "192.0.2.22" },
        );
      for (let i = 0; i < limitOf(REGISTRATION_RATE_LIMIT, getConfig()); i++) {
        expect((await registerForm(`web${i}@example.com`)).status).toBe(302);
      }
      const limited = await registerForm("web-extra@example.com");
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect((await limited.json()).error[""]).toEqual([
        expect.stringMatching(/^Too many sign-ups from your network/),
      ]);
    } finally {
      restore();
    }
  });
});
