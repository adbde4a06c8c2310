import { beforeEach, describe, expect, it } from "vitest";
import * as adminRoute from "~/routes/_admin+/admin";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { emptyDatabase, insertImage, insertSale } from "#tests/setup/ledger-fixtures";
import { bannedFlag } from "#tests/setup/user-state";
import { flashOf } from "#tests/setup/flash";
import { rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";
import { postAdminForm } from "#tests/setup/admin-page";

beforeEach(emptyDatabase);

describe("/admin loader", () => {
  it("sends a signed-out visitor to sign in, coming back to /admin", async () => {
    const response = await callRoute(adminRoute.loader, makeRequest("/admin?q=ada"));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/auth?redirectTo=%2Fadmin%3Fq%3Dada");
  });

  it("answers a signed-in creator 403 with no admin data at all", async () => {
    await createTestAdmin();
    const creator = await createTestUser({ email: "creator@example.com" });
    await createTestUser({ email: "someone-else@example.com" });
    const response = await callRoute(
      adminRoute.loader,
      makeRequest("/admin", { cookie: creator.cookie }),
    );
    expect(response.status).toBe(403);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ message: "You don't have permission to view this page." });
    expect(text).not.toMatch(/someone-else|root@example|totalUsers/);
  });

  it("gives the super admin the stats, the users (filtered by ?q=) and the viewed user", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser({
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
    });
    await createTestUser({ email: "grace@example.com", firstName: "Grace" });
    await insertImage(creator.user.id);
    await insertSale(creator.user.id, { amountCents: 4250, feeCents: 750 });

    const all = await callRoute(adminRoute.loader, makeRequest("/admin", { cookie: admin.cookie }));
    expect(all.status).toBe(200);
    const data = await all.json();
    expect(data.stats).toEqual({
      totalUsers: 3,
      activeUsers: 3,
      totalImages: 1,
      platformRevenue: 7.5,
    });
    expect(data.users).toHaveLength(3);
    expect(data.viewUser).toBeNull();

    const filtered = await (
      await callRoute(
        adminRoute.loader,
        makeRequest(`/admin?q=LOVE&view=${creator.user.id}`, { cookie: admin.cookie }),
      )
    ).json();
    expect(filtered.q).toBe("LOVE");
    expect(filtered.users.map((u: { email: string }) => u.email)).toEqual(["ada@example.com"]);
    expect(filtered.viewUser).toMatchObject({
      id: creator.user.id,
      imageCount: 1,
      earnings: 42.5,
      banned: false,
    });

    const unknownView = await (
      await callRoute(
        adminRoute.loader,
        makeRequest("/admin?view=nobody", { cookie: admin.cookie }),
      )
    ).json();
    expect(unknownView.viewUser).toBeNull();
  });

  it("?ban=<id> opens the ban confirmation for a user who can be banned, and nobody else", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser({ email: "cora@example.com", firstName: "Cora" });
    const load = async (url: string) =>
      (
        await (
          await callRoute(adminRoute.loader, makeRequest(url, { cookie: admin.cookie }))
        ).json()
      ).banTarget;

    expect(await load("/admin")).toBeNull();
    expect(await load(`/admin?ban=${creator.user.id}`)).toMatchObject({
      id: creator.user.id,
      email: "cora@example.com",
    });
    expect(await load("/admin?ban=nobody")).toBeNull();
    expect(await load("/admin?ban=super-admin")).toBeNull();
    await updateWhere("users", { banned: 1 }, "id", creator.user.id);
    expect(await load(`/admin?ban=${creator.user.id}`)).toBeNull();
  });

  it("the confirmation's post bans and lands back on the list without ?ban", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser({ email: "cora@example.com" });
    const response = await postAdminForm(
      `/admin?q=cora&ban=${creator.user.id}`,
      { intent: "ban", userId: creator.user.id },
      { cookie: admin.cookie },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin?q=cora");
    expect(await flashOf(response)).toMatchObject({ kind: "success", title: "User banned" });
    expect(await bannedFlag(creator.user.id)).toBe(1);
  });
});

describe("/admin action", () => {
  it("bans from a plain form post: the creator is signed out and the admin sees a toast", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser({
      email: "creator@example.com",
      firstName: "Cora",
      lastName: "Creator",
    });
    const response = await postAdminForm(
      "/admin?q=cora&view=" + creator.user.id,
      { intent: "ban", userId: creator.user.id },
      { cookie: admin.cookie },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/admin?q=cora&view=${creator.user.id}`);
    expect(await flashOf(response)).toMatchObject({ kind: "success", title: "User banned" });

    expect(await bannedFlag(creator.user.id)).toBe(1);
    expect(await rowsWhere("sessions", "user_id", creator.user.id)).toEqual([]);
    // Their next page load is signed out.
    const after = await callRoute(
      adminRoute.loader,
      makeRequest("/admin", { cookie: creator.cookie }),
    );
    expect(after.status).toBe(302);
    const audit = await selectWhere(
      "audit_log",
      ["actor_id", "action"],
      "subject_id",
      creator.user.id,
    );
    expect(audit).toEqual([{ actor_id: "super-admin", action: "user.ban" }]);

    const unban = await postAdminForm(
      "/admin",
      { intent: "unban", userId: creator.user.id },
      { cookie: admin.cookie },
    );
    expect(unban.headers.get("Location")).toBe("/admin");
    expect(await flashOf(unban)).toMatchObject({ kind: "success", title: "User unbanned" });
    expect(await bannedFlag(creator.user.id)).toBe(0);
  });

  it("answers the 'Failed to update user status.' toast when the status cannot change (super admin, unknown user)", async () => {
    const admin = await createTestAdmin();
    for (const userId of ["super-admin", "no-such-user", ""]) {
      const response = await postAdminForm(
        "/admin",
        { intent: "ban", userId },
        { cookie: admin.cookie },
      );
      expect(response.status).toBe(302);
      expect(await flashOf(response)).toEqual({
        kind: "error",
        title: "Error",
        description: "Failed to update user status.",
      });
    }
    expect((await rowWhere("users", "banned", "id", "super-admin")).banned).toBe(0);
  });

  it("refuses a creator (403) and a signed-out visitor (to sign in), changing nothing", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser();
    const victim = await createTestUser();
    const denied = await postAdminForm(
      "/admin",
      { intent: "ban", userId: victim.user.id },
      { cookie: creator.cookie },
    );
    expect(denied.status).toBe(403);
    const anonymous = await postAdminForm("/admin", { intent: "ban", userId: victim.user.id });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
    // Even the admin's own cookie does nothing when the form comes from another site.
    const crossSite = await postAdminForm(
      "/admin",
      { intent: "ban", userId: victim.user.id },
      { cookie: admin.cookie, origin: "cross" },
    );
    expect(await flashOf(crossSite)).toMatchObject({ kind: "error", title: "Error" });
    expect(await bannedFlag(victim.user.id)).toBe(0);
  });

  it("creates a user from the form, and shows field errors without JavaScript", async () => {
    const admin = await createTestAdmin();
    const fields = {
      intent: "create-user",
      firstName: "Nia",
      lastName: "New",
      email: "Nia@Example.com",
      password: "secret-99",
    };
    const created = await postAdminForm("/admin", fields, { cookie: admin.cookie });
    expect(created.status).toBe(302);
    const row = await rowWhere("users", "*", "email", "nia@example.com");
    expect(created.headers.get("Location")).toBe(`/admin?view=${row.id}`);
    expect(await flashOf(created)).toMatchObject({ kind: "success", title: "User created" });

    const invalid = await postAdminForm(
      "/admin",
      { intent: "create-user", firstName: "", lastName: "X", email: "nope", password: "123" },
      { cookie: admin.cookie },
    );
    expect(invalid.status).toBe(400);
    const reply = await invalid.json();
    expect(reply.error).toMatchObject({
      firstName: ["First name is required"],
      email: ["Invalid email address"],
      password: ["Password must be at least 8 characters"],
    });
    // The password is never sent back.
    expect(JSON.stringify(reply)).not.toContain("123");

    const duplicate = await postAdminForm("/admin", fields, { cookie: admin.cookie });
    expect(duplicate.status).toBe(409);
    expect((await duplicate.json()).error[""]).toEqual([
      "An account with this email already exists",
    ]);
  });
});
