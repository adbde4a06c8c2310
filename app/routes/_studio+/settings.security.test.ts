import { describe, expect, it } from "vitest";
import * as security from "~/routes/_studio+/settings.security";
import { createWebSession } from "~/features/accounts/sessions/sessions.server";
import type { SessionView } from "~/features/accounts/sessions/session-types";
import { getDb } from "~/infra/db.server";
import { getWebUser, sessionCookie } from "~/web/auth.server";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";

/** The Security tab without JavaScript: its loader and its form posts, as a browser sends them. */

const FIREFOX_ON_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0";

type PageData = { sessions: SessionView[]; confirming: string | null };

async function page(cookie: string, search = ""): Promise<PageData> {
  const response = await callRoute(
    security.loader,
    makeRequest(`/settings/security${search}`, { cookie }),
  );
  expect(response.status).toBe(200);
  expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  return (await response.json()) as PageData;
}

const post = (cookie: string, fields: Record<string, string>, origin: "same" | "cross" = "same") =>
  callRoute(security.action, formRequest("/settings/security", fields, { cookie, origin }));

const signedIn = async (cookie: string) =>
  (await getWebUser(makeRequest("/settings", { cookie }))) !== null;

async function secondBrowser(userId: string) {
  const { secret } = await createWebSession(getDb(), userId, 30, new Date(), FIREFOX_ON_WINDOWS);
  return (await sessionCookie().serialize(secret)).split(";")[0];
}

describe("/settings/security without JavaScript", () => {
  it("sends a signed-out visitor to sign in and back", async () => {
    const response = await callRoute(security.loader, makeRequest("/settings/security"));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(
      `/auth?redirectTo=${encodeURIComponent("/settings/security")}`,
    );
    const posted = await callRoute(
      security.action,
      formRequest("/settings/security", { intent: "sign-out-others" }),
    );
    expect(posted.status).toBe(302);
  });

  it("lists this browser (marked), the other browser with its User-Agent, and the API token; ?revoke= asks for the confirmation", async () => {
    const { user, cookie } = await createTestUser();
    await secondBrowser(user.id);
    const { sessions, confirming } = await page(cookie);
    expect(sessions.map((entry) => [entry.kind, entry.current]).sort()).toEqual([
      ["token", false],
      ["web", false],
      ["web", true],
    ]);
    expect(sessions[0].current).toBe(true);
    expect(sessions.find((entry) => entry.kind === "web" && !entry.current)?.userAgent).toBe(
      FIREFOX_ON_WINDOWS,
    );
    expect(confirming).toBeNull();
    expect((await page(cookie, `?revoke=${sessions[1].id}`)).confirming).toBe(sessions[1].id);
  });

  it("Revoke signs the other browser out at its next request and comes back with a notice", async () => {
    const { user, cookie } = await createTestUser();
    const other = await secondBrowser(user.id);
    const target = (await page(cookie)).sessions.find(
      (entry) => entry.kind === "web" && !entry.current,
    )!;
    const response = await post(cookie, { intent: "revoke", id: target.id });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings/security");
    expect(await signedIn(other)).toBe(false);
    expect(await signedIn(cookie)).toBe(true);
    // The revoked browser's next page goes to sign-in.
    const next = await callRoute(
      security.loader,
      makeRequest("/settings/security", { cookie: other }),
    );
    expect(next.status).toBe(302);
    expect(next.headers.get("Location")).toMatch(/^\/auth\?/);
  });

  it("revoking this browser's own session signs out and goes to sign-in", async () => {
    const { cookie } = await createTestUser();
    const own = (await page(cookie)).sessions.find((entry) => entry.current)!;
    const response = await post(cookie, { intent: "revoke", id: own.id });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/auth");
    expect(cookiesFrom(response, cookie)).not.toMatch(/__session=/);
    expect(await signedIn(cookie)).toBe(false);
  });

  it("a Revoke of an id that is not the user's is refused on the page, and a cross-site post changes nothing", async () => {
    const { user, cookie } = await createTestUser();
    const other = await secondBrowser(user.id);
    const stranger = await createTestUser();
    const strangers = (await page(stranger.cookie)).sessions.find((entry) => entry.current)!;
    const refused = await post(cookie, { intent: "revoke", id: strangers.id });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ revokeError: "No such session or token" });
    expect(await signedIn(stranger.cookie)).toBe(true);

    const target = (await page(cookie)).sessions.find(
      (entry) => entry.kind === "web" && !entry.current,
    )!;
    expect((await post(cookie, { intent: "revoke", id: target.id }, "cross")).status).toBe(403);
    expect((await post(cookie, { intent: "sign-out-others" }, "cross")).status).toBe(403);
    expect(await signedIn(other)).toBe(true);
  });

  it("Sign out everywhere else keeps only this browser", async () => {
    const { user, token, cookie } = await createTestUser();
    await secondBrowser(user.id);
    const response = await post(cookie, { intent: "sign-out-others" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings/security");
    expect((await page(cookie)).sessions.map((entry) => [entry.kind, entry.current])).toEqual([
      ["web", true],
    ]);
    expect(await rowsWhere("api_tokens", "user_id", user.id)).toEqual([]);
    expect(token).toBeTruthy();
  });

  it("changes the password: this browser stays signed in, the other one and the token end", async () => {
    const { user, cookie } = await createTestUser();
    const other = await secondBrowser(user.id);
    const response = await post(cookie, {
      intent: "change-password",
      currentPassword: TEST_PASSWORD,
      newPassword: "a-brand-new-secret",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings/security");
    expect(await signedIn(cookie)).toBe(true);
    expect(await signedIn(other)).toBe(false);
    expect((await page(cookie)).sessions).toHaveLength(1);
  });

  it("a wrong current password is the field's message, echoes no password and changes nothing", async () => {
    const { user, cookie } = await createTestUser();
    const other = await secondBrowser(user.id);
    const before = (await rowWhere("users", "password_hash", "id", user.id)).password_hash;
    const response = await post(cookie, {
      intent: "change-password",
      currentPassword: "not-my-password",
      newPassword: "a-brand-new-secret",
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(JSON.parse(text).error).toMatchObject({
      currentPassword: ["The current password is not correct"],
    });
    expect(text).not.toContain("not-my-password");
    expect(text).not.toContain("a-brand-new-secret");
    expect((await rowWhere("users", "password_hash", "id", user.id)).password_hash).toBe(before);
    expect(await signedIn(other)).toBe(true);

    const short = await post(cookie, {
      intent: "change-password",
      currentPassword: TEST_PASSWORD,
      newPassword: "short",
    });
    expect(short.status).toBe(400);
    expect((await short.json()).error).toMatchObject({
      newPassword: ["Password must be at least 8 characters"],
    });
  });
});
