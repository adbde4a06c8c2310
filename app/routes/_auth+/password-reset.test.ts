import { describe, expect, it } from "vitest";
import * as forgot from "~/routes/_auth+/forgot-password";
import * as reset from "~/routes/_auth+/reset-password";
import * as root from "~/root";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { RESET_REQUESTED } from "~/features/accounts/passwords/procedures.server";
import {
  RESET_LINK_INVALID,
  signResetToken,
} from "~/features/accounts/passwords/password-reset.server";
import { userForApiToken } from "~/features/accounts/sessions/sessions.server";
import { verifyPassword } from "~/features/accounts/passwords/passwords.server";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { apiRoute } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";
import { rowWhere, selectWhere } from "#tests/setup/rows-where";

const forgotApi = apiRoute("/api/forgot-password");
const resetApi = apiRoute("/api/reset-password");

let address = 0;
/** Each call from its own client address, so the per-address throttle stays out of the way. */
const from = () => ({ clientIp: `203.0.113.${++address}`, nonce: "test", ties: testTies });

const passwordOf = async (id: string) =>
  (await rowWhere("users", "password_hash", "id", id)).password_hash;

describe("/forgot-password (no JavaScript)", () => {
  it("posts the email and shows the same confirmation for a known and an unknown email", async () => {
    const { user } = await createTestUser({ email: "page-known@example.com" });
    for (const email of [user.email, "page-unknown@example.com"]) {
      const posted = await callRoute(
        forgot.action,
        formRequest("/forgot-password", { email }),
        {},
        from(),
      );
      expect(posted.status).toBe(302);
      expect(posted.headers.get("Location")).toBe("/forgot-password?sent=1");
    }
    const page = await callRoute(forgot.loader, makeRequest("/forgot-password?sent=1"), {}, from());
    expect(await page.json()).toEqual({ sent: true, message: RESET_REQUESTED });
    const mails = await selectWhere("jobs", "payload", "kind", "mail.send");
    expect(mails.map((row) => JSON.parse(row.payload).to)).toEqual([user.email]);
  });

  it("shows field errors as a conform result, and refuses a cross-site post", async () => {
    const invalid = await callRoute(
      forgot.action,
      formRequest("/forgot-password", { email: "nope" }),
      {},
      from(),
    );
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error).toEqual({ email: ["Invalid email address"] });
    const cross = await callRoute(
      forgot.action,
      formRequest("/forgot-password", { email: "x@example.com" }, { origin: "cross" }),
      {},
      from(),
    );
    expect(cross.status).toBe(403);
  });
});

describe("/reset-password (no JavaScript)", () => {
  it("sets the new password, ends the old sessions and redirects to /auth with a flash", async () => {
    const { user, token: apiToken } = await createTestUser();
    const token = signResetToken(getConfig().appSecret, user, new Date());
    const page = await callRoute(
      reset.loader,
      makeRequest(`/reset-password?token=${encodeURIComponent(token)}`),
      {},
      from(),
    );
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(await page.json()).toEqual({ token, valid: true, message: null });

    const short = await callRoute(
      reset.action,
      formRequest("/reset-password", { token, password: "123" }),
      {},
      from(),
    );
    expect(short.status).toBe(400);
    expect((await short.json()).error).toEqual({
      password: ["Password must be at least 8 characters"],
    });

    const done = await callRoute(
      reset.action,
      formRequest("/reset-password", { token, password: "fresh-password" }),
      {},
      from(),
    );
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/auth");
    const landing = await callRoute(
      root.loader,
      makeRequest("/auth", { cookie: cookiesFrom(done) }),
    );
    expect((await landing.json()).flash).toEqual({
      kind: "success",
      title: "Password changed",
      description: "Password changed. Sign in with your new password.",
    });
    expect(await verifyPassword("fresh-password", await passwordOf(user.id))).toBe(true);
    expect(await userForApiToken(getDb(), apiToken)).toBeUndefined();

    // The same link again: the page and the form both say so.
    const used = await callRoute(
      reset.loader,
      makeRequest(`/reset-password?token=${encodeURIComponent(token)}`),
      {},
      from(),
    );
    expect(await used.json()).toEqual({ token, valid: false, message: RESET_LINK_INVALID });
    const again = await callRoute(
      reset.action,
      formRequest("/reset-password", { token, password: "other-password" }),
      {},
      from(),
    );
    expect(again.status).toBe(400);
    const body = await again.json();
    expect(body.error[""]).toEqual([RESET_LINK_INVALID]);
    expect(body.initialValue.password).toBeUndefined();
  });

  it("a missing or garbled token shows the error on the page", async () => {
    for (const url of ["/reset-password", "/reset-password?token=garbled"]) {
      const page = await callRoute(reset.loader, makeRequest(url), {}, from());
      const data = await page.json();
      expect(data.valid, url).toBe(false);
      expect(data.message, url).toMatch(/Ask for a new one\.$/);
    }
  });
});

describe("POST /api/forgot-password and /api/reset-password", () => {
  it("answers 202 with the same body for any email, 429 with Retry-After past the limit", async () => {
    const { user } = await createTestUser();
    const known = await callRoute(
      forgotApi.action,
      makeRequest("/api/forgot-password", { json: { email: user.email } }),
      {},
      from(),
    );
    const unknown = await callRoute(
      forgotApi.action,
      makeRequest("/api/forgot-password", { json: { email: "api-nobody@example.com" } }),
      {},
      from(),
    );
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(await known.text()).toBe(await unknown.text());
    for (let i = 0; i < 4; i += 1) {
      await callRoute(
        forgotApi.action,
        makeRequest("/api/forgot-password", { json: { email: "api-nobody@example.com" } }),
        {},
        from(),
      );
    }
    const limited = await callRoute(
      forgotApi.action,
      makeRequest("/api/forgot-password", { json: { email: "api-nobody@example.com" } }),
      {},
      from(),
    );
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({
      message: expect.stringMatching(/^Too many password reset requests/),
    });
  });

  it("answers 204 for a good token, 400 with a message for a used one or a short password", async () => {
    const { user } = await createTestUser();
    const token = signResetToken(getConfig().appSecret, user, new Date());
    const short = await callRoute(
      resetApi.action,
      makeRequest("/api/reset-password", { json: { token, password: "12345" } }),
      {},
      from(),
    );
    expect(short.status).toBe(400);
    expect((await short.json()).fieldErrors).toEqual({
      password: ["Password must be at least 8 characters"],
    });
    const ok = await callRoute(
      resetApi.action,
      makeRequest("/api/reset-password", { json: { token, password: "api-new-pass" } }),
      {},
      from(),
    );
    expect(ok.status).toBe(204);
    const used = await callRoute(
      resetApi.action,
      makeRequest("/api/reset-password", { json: { token, password: "api-new-pass-2" } }),
      {},
      from(),
    );
    expect(used.status).toBe(400);
    expect(await used.json()).toEqual({
      message: RESET_LINK_INVALID,
      fieldErrors: { token: [RESET_LINK_INVALID] },
    });
  });
});
