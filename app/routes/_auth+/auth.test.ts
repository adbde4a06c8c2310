import { describe, expect, it } from "vitest";
import * as auth from "~/routes/_auth+/auth";
import * as logout from "~/routes/_auth+/logout";
import * as root from "~/root";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { SUPER_ADMIN_ID } from "~/lib/accounts";
import { apiRoute } from "#tests/setup/api-routes";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { selectWhere } from "#tests/setup/rows-where";

const loginForm = (fields: Record<string, string>, options = {}) =>
  formRequest("/auth", { intent: "login", redirectTo: "/dashboard", ...fields }, options);

describe("/auth", () => {
  it("signs in with the form: a database session, a cookie holding only its id, a flash, a redirect", async () => {
    const { user } = await createTestUser({ email: "web@example.com" });
    const response = await callRoute(
      auth.action,
      loginForm({ email: "web@example.com", password: TEST_PASSWORD }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    const cookie = cookiesFrom(response);
    expect(cookie).toMatch(/__session=/);
    expect(cookie).not.toContain(user.id);
    const setCookie = response.headers
      .getSetCookie()
      .find((line) => line.startsWith("__session="))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const home = await callRoute(root.loader, makeRequest("/dashboard", { cookie }));
    const data = await home.json();
    expect(data.user.email).toBe("web@example.com");
    expect(data.flash).toEqual({
      kind: "success",
      title: "Welcome back!",
      description: "You've been logged in successfully.",
    });

    // Signed in, /auth sends the visitor on to the dashboard.
    const again = await callRoute(auth.loader, makeRequest("/auth", { cookie }));
    expect(again.headers.get("Location")).toBe("/dashboard");

    // Sign out ends the session row, not just the cookie.
    const out = await callRoute(logout.action, makeRequest("/logout", { method: "POST", cookie }));
    expect(out.headers.get("Location")).toBe("/");
    const after = await callRoute(root.loader, makeRequest("/dashboard", { cookie }));
    expect((await after.json()).user).toBeNull();
    const rows = await selectWhere("sessions", "user_id", "user_id", user.id);
    // Only the session the test fixture opened for itself remains.
    expect(rows).toHaveLength(1);
  });

  it("lands the super admin on /admin, by the form and through GET /api/login, unless another page was asked for", async () => {
    await createTestUser({ id: SUPER_ADMIN_ID, email: "root@example.com", firstName: "Super" });
    const signIn = (redirectTo?: string) =>
      callRoute(
        auth.action,
        loginForm({
          email: "root@example.com",
          password: TEST_PASSWORD,
          ...(redirectTo ? { redirectTo } : {}),
        }),
      );
    const response = await signIn();
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin");
    expect((await signIn("/marketplace")).headers.get("Location")).toBe("/marketplace");

    // Signed in, the landing page's GET /api/login leads to /auth, which sends the super admin on to /admin.
    const cookie = cookiesFrom(response);
    const { loader: loginRedirect } = apiRoute("/api/login");
    const hop = await callRoute(loginRedirect, makeRequest("/api/login", { cookie }));
    expect(hop.headers.get("Location")).toBe("/auth");
    const landed = await callRoute(auth.loader, makeRequest("/auth", { cookie }));
    expect(landed.headers.get("Location")).toBe("/admin");
  });

  it("keeps a same-site redirectTo and drops a foreign one", async () => {
    await createTestUser({ email: "redirect@example.com" });
    const good = await callRoute(
      auth.action,
      loginForm({
        email: "redirect@example.com",
        password: TEST_PASSWORD,
        redirectTo: "/marketplace?style=anime",
      }),
    );
    expect(good.headers.get("Location")).toBe("/marketplace?style=anime");
    const evil = await callRoute(
      auth.action,
      loginForm({
        email: "redirect@example.com",
        password: TEST_PASSWORD,
        redirectTo: "https://evil.example",
      }),
    );
    expect(evil.headers.get("Location")).toBe("/dashboard");
  });

  it("answers field errors and a wrong password as conform results (no JavaScript needed)", async () => {
    const invalid = await callRoute(auth.action, loginForm({ email: "nope", password: "1" }));
    expect(invalid.status).toBe(400);
    const body = await invalid.json();
    expect(body.error).toEqual({
      email: ["Invalid email address"],
      password: ["Password must be at least 6 characters"],
    });
    expect(body.initialValue.password).toBeUndefined();

    await createTestUser({ email: "wrong@example.com" });
    const wrong = await callRoute(
      auth.action,
      loginForm({ email: "wrong@example.com", password: "wrong-password" }),
    );
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error[""]).toEqual(["Invalid email or password"]);
  });

  it("refuses a cross-site form post", async () => {
    await createTestUser({ email: "csrf@example.com" });
    const response = await callRoute(
      auth.action,
      loginForm({ email: "csrf@example.com", password: TEST_PASSWORD }, { origin: "cross" }),
    );
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("register shows the registration-closed notice while closed and creates nothing", async () => {
    const before = await getDb().selectFrom("users").select("id").execute();
    const response = await callRoute(
      auth.action,
      formRequest("/auth", {
        intent: "register",
        firstName: "N",
        lastName: "M",
        email: "n@example.com",
        password: "nia-secret-1",
      }),
    );
    expect(response.status).toBe(302);
    const next = await callRoute(
      root.loader,
      makeRequest("/auth", { cookie: cookiesFrom(response) }),
    );
    expect((await next.json()).flash).toEqual({
      kind: "error",
      title: "Registration",
      description: "Please use the login form with existing credentials.",
    });
    expect(await getDb().selectFrom("users").select("id").execute()).toHaveLength(before.length);
  });

  it("register validates, and when open answers with a check-your-email notice", async () => {
    const config = getConfig() as { REGISTRATION: string };
    config.REGISTRATION = "open";
    try {
      const invalid = await callRoute(
        auth.action,
        formRequest("/auth", {
          intent: "register",
          email: "x@example.com",
          password: "nia-secret-1",
        }),
      );
      expect(invalid.status).toBe(400);
      expect((await invalid.json()).error).toEqual({
        firstName: ["First name is required"],
        lastName: ["Last name is required"],
      });
      const created = await callRoute(
        auth.action,
        formRequest("/auth", {
          intent: "register",
          firstName: "Nia",
          lastName: "New",
          email: "nia@example.com",
          password: "nia-secret-1",
        }),
      );
      // Nobody is signed in yet: the mailed link creates the account (registration.test.ts).
      expect(created.status).toBe(302);
      expect(created.headers.get("Location")).toBe("/auth");
      const next = await callRoute(
        root.loader,
        makeRequest("/auth", { cookie: cookiesFrom(created) }),
      );
      const page = await next.json();
      expect(page.user).toBeNull();
      expect(page.flash).toMatchObject({ kind: "info", title: "Check your email" });
    } finally {
      config.REGISTRATION = "closed";
    }
  });
});
