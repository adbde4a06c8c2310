import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getConfig } from "~/infra/config.server";
import { loader as tokenTestPage } from "~/routes/_auth+/token-test";
import { DEMO_CREATOR } from "#db/demo-account";
import { createTestUser } from "#tests/setup/accounts";
import { callRoute } from "#tests/setup/requests";
import { tokenTestPrefill } from "~/features/accounts/sessions/token-test-prefill.server";

describe("the /token-test form's prefill", () => {
  it("helps only a development server: the admin's email, then the seeded demo account", async () => {
    const db = getDb();
    const development = { NODE_ENV: "development" as const, ADMIN_EMAIL: "admin@example.com" };
    expect(await tokenTestPrefill(db, development)).toEqual({
      email: "admin@example.com",
      key: "",
    });
    await createTestUser({ email: DEMO_CREATOR.email });
    expect(await tokenTestPrefill(db, development)).toEqual({
      email: DEMO_CREATOR.email,
      key: DEMO_CREATOR.password,
    });

    // Anywhere else, nothing: no account name, no password in the page.
    for (const NODE_ENV of ["production", "test"] as const) {
      expect(await tokenTestPrefill(db, { NODE_ENV, ADMIN_EMAIL: "admin@example.com" })).toEqual({
        email: "",
        key: "",
      });
    }
    expect(getConfig().NODE_ENV).toBe("test");
    const page = await callRoute(tokenTestPage, new Request("http://localhost/token-test"));
    const text = await page.text();
    expect(JSON.parse(text)).toEqual({ email: "", key: "" });
    expect(text).not.toContain(DEMO_CREATOR.password);
  });
});
