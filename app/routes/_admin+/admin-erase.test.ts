import { beforeEach, describe, expect, it } from "vitest";
import * as adminRoute from "~/routes/_admin+/admin";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { emptyDatabase } from "#tests/setup/ledger-fixtures";
import { flashOf } from "#tests/setup/flash";
import { erasedAt } from "#tests/setup/user-state";
import { selectWhere } from "#tests/setup/rows-where";
import { postAdminForm } from "#tests/setup/admin-page";

/** The admin portal's erasure: ?erase=<id> opens the confirmation; its form post erases. */
beforeEach(emptyDatabase);

describe("/admin erasure", () => {
  it("opens the confirmation only for a user who can be erased", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser({ email: "cora@example.com" });
    const load = async (url: string) =>
      (
        await (
          await callRoute(adminRoute.loader, makeRequest(url, { cookie: admin.cookie }))
        ).json()
      ).eraseTarget;
    expect(await load("/admin")).toBeNull();
    expect(await load(`/admin?erase=${creator.user.id}`)).toMatchObject({
      id: creator.user.id,
      email: "cora@example.com",
      erasedAt: null,
    });
    expect(await load("/admin?erase=nobody")).toBeNull();
    expect(await load("/admin?erase=super-admin")).toBeNull();
  });

  it("the confirmation's post erases the user, signs them out and records who did it", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser({ email: "cora@example.com" });
    const response = await postAdminForm(
      `/admin?q=cora&erase=${creator.user.id}`,
      { intent: "erase-user", userId: creator.user.id },
      { cookie: admin.cookie },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin?q=cora");
    expect(await flashOf(response)).toMatchObject({ kind: "success", title: "Account erased" });
    expect(await erasedAt(creator.user.id)).not.toBeNull();
    expect(
      (await callRoute(adminRoute.loader, makeRequest("/admin", { cookie: creator.cookie })))
        .status,
    ).toBe(302);
    const audit = await selectWhere(
      "audit_log",
      ["actor_id", "action"],
      "subject_id",
      creator.user.id,
    );
    expect(audit).toEqual([{ actor_id: "super-admin", action: "user.erase" }]);
    // Erased: no second confirmation.
    const again = await (
      await callRoute(
        adminRoute.loader,
        makeRequest(`/admin?erase=${creator.user.id}`, { cookie: admin.cookie }),
      )
    ).json();
    expect(again.eraseTarget).toBeNull();
  });

  it("refuses the super admin's own account with a message, and a creator's post", async () => {
    const admin = await createTestAdmin();
    const refused = await postAdminForm(
      "/admin",
      { intent: "erase-user", userId: "super-admin" },
      { cookie: admin.cookie },
    );
    expect(await flashOf(refused)).toMatchObject({
      kind: "error",
      title: "The account was not erased",
    });
    expect(await erasedAt("super-admin")).toBeNull();
    const creator = await createTestUser();
    const victim = await createTestUser();
    const forbidden = await postAdminForm(
      "/admin",
      { intent: "erase-user", userId: victim.user.id },
      { cookie: creator.cookie },
    );
    expect(forbidden.status).toBe(403);
    expect(await erasedAt(victim.user.id)).toBeNull();
  });
});
