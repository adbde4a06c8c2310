import { beforeEach, describe, expect, it } from "vitest";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { getDb } from "~/infra/db.server";
import { emptyDatabase, insertImage, insertSale } from "#tests/setup/ledger-fixtures";
import { apiRoute } from "#tests/setup/api-routes";
import { bannedFlag } from "#tests/setup/user-state";
import { rowsWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const statsRoute = apiRoute("/api/admin/stats");
const usersRoute = apiRoute("/api/admin/users");
const userRoute = apiRoute("/api/admin/users/{userId}");
const statusRoute = apiRoute("/api/admin/users/{userId}/{action}");
const imagesRoute = apiRoute("/api/admin/images");
const tokenUser = apiRoute("/api/token-user");
const marketplaceRoute = apiRoute("/api/marketplace");

beforeEach(emptyDatabase);

/** The status GET /api/token-user answers with these credentials. */
async function tokenUserStatus(auth: { token?: string; cookie?: string }) {
  return (await callRoute(tokenUser.loader, makeRequest("/api/token-user", auth))).status;
}

/** A GET of the route as the holder of `token`. */
function getAs(
  handler: Parameters<typeof callRoute>[0],
  path: string,
  token: string,
  params: Record<string, string> = {},
) {
  return callRoute(handler, makeRequest(path, { token }), params);
}

type Who = "anonymous" | "creator" | "admin";

async function callers() {
  const admin = await createTestAdmin();
  const creator = await createTestUser({
    email: "creator@example.com",
    firstName: "Cora",
    lastName: "Creator",
  });
  return { admin, creator };
}

describe("admin API authorization", () => {
  it("answers 401 signed out, 403 for a creator (token or cookie) and 200 for the super admin", async () => {
    const { admin, creator } = await callers();
    const gets = [
      [statsRoute.loader, "/api/admin/stats", {}],
      [usersRoute.loader, "/api/admin/users", {}],
      [userRoute.loader, `/api/admin/users/${creator.user.id}`, { userId: creator.user.id }],
      [imagesRoute.loader, "/api/admin/images", {}],
    ] as const;
    for (const [handler, path, params] of gets) {
      const as = async (who: Who, via: "token" | "cookie" = "token") => {
        const account = who === "admin" ? admin : who === "creator" ? creator : null;
        const auth = account
          ? via === "token"
            ? { token: account.token }
            : { cookie: account.cookie }
          : {};
        return callRoute(handler, makeRequest(path, auth), params);
      };
      const anonymous = await as("anonymous");
      expect(anonymous.status, path).toBe(401);
      const denied = await as("creator");
      expect(denied.status, path).toBe(403);
      const body = await denied.json();
      expect(Object.keys(body), path).toEqual(["message"]);
      expect((await as("creator", "cookie")).status, path).toBe(403);
      expect((await as("admin")).status, path).toBe(200);
      expect((await as("admin", "cookie")).status, path).toBe(200);
    }

    for (const action of ["ban", "unban"]) {
      const path = `/api/admin/users/${creator.user.id}/${action}`;
      const params = { userId: creator.user.id, action };
      expect(
        (await callRoute(statusRoute.action, makeRequest(path, { method: "POST" }), params)).status,
      ).toBe(401);
      const byCreator = await callRoute(
        statusRoute.action,
        makeRequest(path, { method: "POST", token: creator.token }),
        params,
      );
      expect(byCreator.status).toBe(403);
    }
    // The creator was never banned by those attempts.
    expect(await bannedFlag(creator.user.id)).toBe(0);
  });

  it("refuses a cookie-authenticated ban from another site", async () => {
    const { admin, creator } = await callers();
    const response = await callRoute(
      statusRoute.action,
      makeRequest(`/api/admin/users/${creator.user.id}/ban`, {
        method: "POST",
        cookie: admin.cookie,
        origin: "cross",
      }),
      { userId: creator.user.id, action: "ban" },
    );
    expect(response.status).toBe(403);
    expect(await bannedFlag(creator.user.id)).toBe(0);
  });

  it("answers JSON 405 for the wrong method", async () => {
    const { admin } = await callers();
    const response = await callRoute(
      statsRoute.action,
      makeRequest("/api/admin/stats", { method: "POST", token: admin.token }),
    );
    expect(response.status).toBe(405);
  });
});

describe("GET /api/admin/stats", () => {
  it("counts users, active users, images and sums the platform's fees", async () => {
    const { admin, creator } = await callers();
    const empty = await getAs(statsRoute.loader, "/api/admin/stats", admin.token);
    expect(await empty.json()).toEqual({
      totalUsers: 2,
      activeUsers: 2,
      totalImages: 0,
      platformRevenue: 0,
    });

    const other = await createTestUser();
    await updateWhere("users", { banned: 1 }, "id", other.user.id);
    await insertImage(creator.user.id);
    await insertImage(creator.user.id);
    await insertImage(other.user.id);
    await insertSale(creator.user.id, { amountCents: 2125, feeCents: 375 });
    await insertSale(creator.user.id, { amountCents: 6375, feeCents: 1125 });
    const response = await getAs(statsRoute.loader, "/api/admin/stats", admin.token);
    expect(await response.json()).toEqual({
      totalUsers: 3,
      activeUsers: 2,
      totalImages: 3,
      platformRevenue: 15,
    });
  });
});

describe("GET /api/admin/users", () => {
  it("lists every user with image counts and real earnings sums", async () => {
    const { admin, creator } = await callers();
    await insertImage(creator.user.id);
    await insertImage(creator.user.id);
    await insertSale(creator.user.id, { amountCents: 2125, feeCents: 375 });
    await insertSale(creator.user.id, { amountCents: 1000, feeCents: 250 });
    const response = await getAs(usersRoute.loader, "/api/admin/users", admin.token);
    expect(response.status).toBe(200);
    const users = await response.json();
    expect(users).toHaveLength(2);
    expect(users.find((u: { id: string }) => u.id === creator.user.id)).toEqual({
      id: creator.user.id,
      email: "creator@example.com",
      firstName: "Cora",
      lastName: "Creator",
      profileImageUrl: null,
      createdAt: creator.user.created_at,
      banned: false,
      imageCount: 2,
      earnings: 31.25,
      erasedAt: null,
    });
    const root = users.find((u: { id: string }) => u.id === "super-admin");
    expect(root).toMatchObject({ imageCount: 0, earnings: 0, banned: false });
    // Nothing secret leaks.
    expect(JSON.stringify(users)).not.toMatch(/password|hash/i);
  });

  it("filters on email, first or last name ignoring case, and escapes LIKE wildcards", async () => {
    const { admin } = await callers();
    await createTestUser({
      email: "ada.lovelace@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
    });
    await createTestUser({ email: "grace@navy.example", firstName: "Grace", lastName: "Hopper" });
    await createTestUser({ email: "percent@example.com", firstName: "Fifty%", lastName: "Off" });
    await createTestUser({ email: "under_score@example.com", firstName: "Una", lastName: "Der" });
    await createTestUser({ email: "underxscore@example.com", firstName: "Unx", lastName: "Der" });
    const search = async (q: string) => {
      const response = await getAs(
        usersRoute.loader,
        `/api/admin/users?q=${encodeURIComponent(q)}`,
        admin.token,
      );
      expect(response.status).toBe(200);
      return ((await response.json()) as { email: string }[]).map((u) => u.email).sort();
    };
    expect(await search("LOVELACE")).toEqual(["ada.lovelace@example.com"]);
    expect(await search("grace")).toEqual(["grace@navy.example"]);
    expect(await search("hOpPeR")).toEqual(["grace@navy.example"]);
    expect(await search("NAVY.EXAMPLE")).toEqual(["grace@navy.example"]);
    expect(await search("ada lovelace")).toEqual(["ada.lovelace@example.com"]);
    // "%" and "_" are characters, not wildcards.
    expect(await search("%")).toEqual(["percent@example.com"]);
    expect(await search("under_")).toEqual(["under_score@example.com"]);
    expect(await search("\\")).toEqual([]);
    expect(await search("nobody-matches-this")).toEqual([]);
    // Blank is no filter.
    expect(await search("   ")).toHaveLength(7);
  });

  it("answers 400 for an overlong search", async () => {
    const { admin } = await callers();
    const response = await getAs(
      usersRoute.loader,
      `/api/admin/users?q=${"x".repeat(201)}`,
      admin.token,
    );
    expect(response.status).toBe(400);
  });
});

describe("GET /api/admin/users/{userId}", () => {
  it("answers the user, or 404", async () => {
    const { admin, creator } = await callers();
    const found = await getAs(
      userRoute.loader,
      `/api/admin/users/${creator.user.id}`,
      admin.token,
      { userId: creator.user.id },
    );
    expect((await found.json()).email).toBe("creator@example.com");
    const missing = await getAs(userRoute.loader, "/api/admin/users/nope", admin.token, {
      userId: "nope",
    });
    expect(missing.status).toBe(404);
  });
});

describe("GET /api/admin/images", () => {
  it("lists every user's images with userId and signed URLs", async () => {
    const { admin, creator } = await callers();
    const first = await insertImage(creator.user.id, "2026-01-01T00:00:00.000Z");
    const second = await insertImage(admin.user.id, "2026-02-01T00:00:00.000Z");
    const response = await getAs(imagesRoute.loader, "/api/admin/images", admin.token);
    const images = await response.json();
    expect(images.map((i: { id: string; userId: string }) => [i.id, i.userId])).toEqual([
      [second, admin.user.id],
      [first, creator.user.id],
    ]);
    expect(images[0].originalUrl).toMatch(/^\/media\/originals\/[^?]+\?exp=\d+&sig=/);
    expect(images[0]).toMatchObject({
      width: 640,
      height: 480,
      bytes: 12345,
      mimeType: "image/jpeg",
    });
  });
});

describe("POST /api/admin/users/{userId}/ban and /unban", () => {
  const post = (userId: string, action: string, token: string) =>
    callRoute(
      statusRoute.action,
      makeRequest(`/api/admin/users/${encodeURIComponent(userId)}/${action}`, {
        method: "POST",
        token,
      }),
      { userId, action },
    );

  it("bans at once: sessions and tokens end, the user is marked banned, an audit row is written", async () => {
    const { admin, creator } = await callers();
    const before = await getAs(tokenUser.loader, "/api/token-user", creator.token);
    expect(before.status).toBe(200);

    const response = await post(creator.user.id, "ban", admin.token);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      id: creator.user.id,
      email: "creator@example.com",
      banned: true,
      imageCount: 0,
    });

    const db = getDb();
    expect(
      await db.selectFrom("sessions").where("user_id", "=", creator.user.id).selectAll().execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom("api_tokens")
        .where("user_id", "=", creator.user.id)
        .selectAll()
        .execute(),
    ).toEqual([]);
    expect(await tokenUserStatus({ token: creator.token })).toBe(401);
    expect(await tokenUserStatus({ cookie: creator.cookie })).toBe(401);
    // The admin's own credentials are untouched.
    expect(await tokenUserStatus({ token: admin.token })).toBe(200);

    const audit = await rowsWhere("audit_log", "subject_id", creator.user.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: "super-admin",
      action: "user.ban",
      subject_id: creator.user.id,
    });
    expect(Number.isNaN(Date.parse(audit[0].created_at))).toBe(false);

    const stats = await getAs(statsRoute.loader, "/api/admin/stats", admin.token);
    expect((await stats.json()).activeUsers).toBe(1);
  });

  it("a ban takes the creator's listings off the marketplace; an unban brings them back", async () => {
    const { admin, creator } = await callers();
    const { listingId } = await insertSale(creator.user.id, { amountCents: 2125, feeCents: 375 });
    const listed = async () => {
      const response = await callRoute(marketplaceRoute.loader, makeRequest("/api/marketplace"));
      expect(response.status).toBe(200);
      return ((await response.json()).items as { id: string }[]).map((item) => item.id);
    };
    expect(await listed()).toEqual([listingId]);
    await post(creator.user.id, "ban", admin.token);
    expect(await listed()).toEqual([]);
    await post(creator.user.id, "unban", admin.token);
    expect(await listed()).toEqual([listingId]);
  });

  it("unbans: the user is active again, with an audit row, and can sign in again", async () => {
    const { admin, creator } = await callers();
    await post(creator.user.id, "ban", admin.token);
    const response = await post(creator.user.id, "unban", admin.token);
    expect(response.status).toBe(200);
    expect((await response.json()).banned).toBe(false);
    const audit = await selectWhere(
      "audit_log",
      ["action", "actor_id"],
      "subject_id",
      creator.user.id,
      "id",
    );
    expect(audit).toEqual([
      { action: "user.ban", actor_id: "super-admin" },
      { action: "user.unban", actor_id: "super-admin" },
    ]);
  });

  it("refuses to ban or unban the super admin (400), with no audit row", async () => {
    const { admin } = await callers();
    for (const action of ["ban", "unban"]) {
      const response = await post("super-admin", action, admin.token);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toMatch(/super admin cannot be/);
    }
    expect(await bannedFlag("super-admin")).toBe(0);
    expect(await tokenUserStatus({ token: admin.token })).toBe(200);
    expect(await getDb().selectFrom("audit_log").selectAll().execute()).toEqual([]);
  });

  it("answers 404 for an unknown user and 400 for an unknown action", async () => {
    const { admin, creator } = await callers();
    const missing = await post("no-such-user", "ban", admin.token);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "User not found" });
    const bad = await post(creator.user.id, "delete", admin.token);
    expect(bad.status).toBe(400);
    expect(await getDb().selectFrom("audit_log").selectAll().execute()).toEqual([]);
  });
});

describe("POST /api/admin/users", () => {
  it("creates a user who can then sign in, audited; 409 for an email in use; 400 for bad input", async () => {
    const { admin, creator } = await callers();
    const json = {
      email: "New.Person@Example.com",
      password: "secret-123",
      firstName: "New",
      lastName: "Person",
    };
    const created = await callRoute(
      usersRoute.action,
      makeRequest("/api/admin/users", { json, token: admin.token }),
    );
    expect(created.status).toBe(201);
    const user = await created.json();
    expect(user).toMatchObject({
      email: "new.person@example.com",
      firstName: "New",
      banned: false,
      imageCount: 0,
    });
    const audit = await rowsWhere("audit_log", "subject_id", user.id);
    expect(audit.map((row) => row.action)).toEqual(["user.create"]);

    const { action: tokenLogin } = (await import("#tests/setup/api-routes")).apiRoute(
      "/api/token-login",
    );
    const login = await callRoute(
      tokenLogin,
      makeRequest("/api/token-login", {
        json: { email: "new.person@example.com", password: "secret-123" },
      }),
    );
    expect(login.status).toBe(200);

    const again = await callRoute(
      usersRoute.action,
      makeRequest("/api/admin/users", { json, token: admin.token }),
    );
    expect(again.status).toBe(409);
    const invalid = await callRoute(
      usersRoute.action,
      makeRequest("/api/admin/users", { json: { email: "x", password: "1" }, token: admin.token }),
    );
    expect(invalid.status).toBe(400);
    expect(Object.keys((await invalid.json()).fieldErrors).sort()).toEqual([
      "email",
      "firstName",
      "lastName",
      "password",
    ]);
    const byCreator = await callRoute(
      usersRoute.action,
      makeRequest("/api/admin/users", { json, token: creator.token }),
    );
    expect(byCreator.status).toBe(403);
  });
});
