import { describe, expect, it } from "vitest";
import { action, loader } from "~/routes/_studio+/settings.delete";
import { ERASE_CONFIRMATION_REQUIRED } from "~/features/erasure/schemas";
import { WRONG_PASSWORD } from "~/features/accounts/public.server";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { erasedAt } from "#tests/setup/user-state";

/** Posts the Delete account form (the right password, box ticked unless `fields` say otherwise). */
function postDelete(
  cookie: string,
  fields: Record<string, string> = { password: TEST_PASSWORD, confirm: "on" },
  origin?: "cross",
) {
  return callRoute(action, formRequest("/settings/delete?confirm=1", fields, { cookie, origin }));
}

/** The Delete account tab as a browser without JavaScript uses it: a form post, then a redirect. */
describe("/settings/delete", () => {
  it("refuses a wrong password or an unticked box with the field's message, and changes nothing", async () => {
    const { user, cookie } = await createTestUser();
    const wrong = await postDelete(cookie, { password: "not-it", confirm: "on" });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(await wrong.json())).toContain(WRONG_PASSWORD);
    const unticked = await postDelete(cookie, { password: TEST_PASSWORD });
    expect(unticked.status).toBe(400);
    expect(JSON.stringify(await unticked.json())).toContain(ERASE_CONFIRMATION_REQUIRED);
    expect(await erasedAt(user.id)).toBeNull();
    expect((await callRoute(loader, makeRequest("/settings/delete", { cookie }))).status).toBe(200);
  });

  it("erases the account, clears the session cookie and lands on the home page; the old cookie is signed out", async () => {
    const { user, cookie } = await createTestUser();
    const response = await postDelete(cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.get("Set-Cookie")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect(await erasedAt(user.id)).not.toBeNull();
    const after = await callRoute(loader, makeRequest("/settings/delete", { cookie }));
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
  });

  it("refuses a cross-site post", async () => {
    const { user, cookie } = await createTestUser();
    const response = await postDelete(cookie, undefined, "cross");
    expect(response.status).toBe(403);
    expect(await erasedAt(user.id)).toBeNull();
  });
});
