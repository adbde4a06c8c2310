import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { MAIL_JOB } from "~/features/mail/public.server";
import { findUserById } from "~/features/accounts/users.server";
import * as profileTab from "~/routes/_studio+/settings._index";
import * as confirmPage from "~/routes/_studio+/settings.confirm-email";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { fixture, uploadRequest } from "#tests/setup/studio";
import { rowsWhere, selectWhere } from "#tests/setup/rows-where";

/** The Profile tab and the email change link's page without JavaScript: plain form posts, redirects with a flash, field messages. */

const userRow = async (id: string) => (await findUserById(getDb(), id))!;

const profileForm = (fields: Record<string, string>) => ({
  intent: "profile",
  firstName: "Cora",
  lastName: "Creator",
  handle: "",
  bio: "",
  ...fields,
});

type Reply = { status: string; error?: Record<string, string[] | null> };

async function post(fields: Record<string, string>, cookie: string) {
  return callRoute(profileTab.action, formRequest("/settings", fields, { cookie }));
}

describe("the Profile tab without JavaScript", () => {
  it("shows the account, and sends a signed-out visitor to sign in and back", async () => {
    const { user, cookie } = await createTestUser({ firstName: "Cora", lastName: "Creator" });
    const page = await callRoute(profileTab.loader, makeRequest("/settings", { cookie }));
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({
      account: { id: user.id, firstName: "Cora", email: user.email, handle: null },
    });
    const signedOut = await callRoute(profileTab.loader, makeRequest("/settings"));
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toBe("/auth?redirectTo=%2Fsettings");
  });

  it("saves names, handle and bio and redirects with a flash", async () => {
    const { user, cookie } = await createTestUser();
    const saved = await post(
      profileForm({ firstName: "Coralie", handle: "Coralie-Pix", bio: "Portraits." }),
      cookie,
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/settings");
    expect(saved.headers.get("Set-Cookie")).toMatch(/flash/);
    expect(await userRow(user.id)).toMatchObject({
      first_name: "Coralie",
      handle: "coralie-pix",
      bio: "Portraits.",
    });
    // Emptied handle and bio are cleared.
    await post(profileForm({ firstName: "Coralie" }), cookie);
    expect(await userRow(user.id)).toMatchObject({ handle: null, bio: null });
  });

  it("answers a taken or invalid handle with the field's message, and changes nothing", async () => {
    const owner = await createTestUser();
    await post(profileForm({ handle: "house-style" }), owner.cookie);
    const { user, cookie } = await createTestUser({ firstName: "Before" });
    const before = await userRow(user.id);

    const taken = await post(profileForm({ firstName: "After", handle: "house-style" }), cookie);
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as Reply).error?.handle).toEqual([
      "This handle is taken. Choose another one.",
    ]);
    const reserved = await post(profileForm({ handle: "admin" }), cookie);
    expect(reserved.status).toBe(400);
    expect(((await reserved.json()) as Reply).error?.handle?.[0]).toMatch(/reserved/);
    const short = await post(profileForm({ handle: "ab", firstName: "" }), cookie);
    const shortReply = (await short.json()) as Reply;
    expect(shortReply.error?.handle?.[0]).toMatch(/3–30 characters/);
    expect(shortReply.error?.firstName).toEqual(["First name is required"]);
    expect(await userRow(user.id)).toEqual(before);
  });

  it("uploads a photo as a multipart post, and refuses a file that is not an image with the uploads' message", async () => {
    const { user, cookie } = await createTestUser();
    const uploaded = await callRoute(
      profileTab.action,
      uploadRequest(fixture("portrait.png"), { cookie, url: "/settings" }),
    );
    expect(uploaded.status).toBe(302);
    expect((await userRow(user.id)).profile_image_url).toMatch(/^\/media\/avatars\//);

    const before = await userRow(user.id);
    const refused = await callRoute(
      profileTab.action,
      uploadRequest(Buffer.from("not an image"), { cookie, url: "/settings" }),
    );
    expect(refused.status).toBe(302);
    expect(decodeURIComponent(refused.headers.get("Set-Cookie") ?? "")).not.toBe("");
    expect(await userRow(user.id)).toEqual(before);
    const crossSite = await callRoute(
      profileTab.action,
      uploadRequest(fixture("portrait.png"), { cookie, url: "/settings", origin: "cross" }),
    );
    expect(crossSite.status).toBe(403);
    expect(await userRow(user.id)).toEqual(before);
  });

  it("asks for an email change with the password; a wrong one is the field's message, an address in use is answered as a free one", async () => {
    const { user, cookie } = await createTestUser();
    const other = await createTestUser();
    const wrong = await post(
      { intent: "email", email: "next@example.com", password: "wrong-password" },
      cookie,
    );
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as Reply).error?.password).toEqual([
      "The password is not correct",
    ]);
    expect(await rowsWhere("email_changes", "user_id", user.id)).toEqual([]);
    // The form must not tell which addresses have accounts: the same answer as for a free one.
    const inUse = await post(
      { intent: "email", email: other.user.email, password: TEST_PASSWORD },
      cookie,
    );
    expect(inUse.status).toBe(302);
    expect((await userRow(other.user.id)).email).toBe(other.user.email);

    const asked = await post(
      { intent: "email", email: "next@example.com", password: TEST_PASSWORD },
      cookie,
    );
    expect(asked.status).toBe(302);
    expect((await userRow(user.id)).email).toBe(user.email);
    const page = (await (
      await callRoute(profileTab.loader, makeRequest("/settings", { cookie }))
    ).json()) as { account: { pendingEmail: string } };
    expect(page.account.pendingEmail).toBe("next@example.com");
  });
});

describe("the email change link's page", () => {
  async function linkFor(cookie: string, email: string) {
    await post({ intent: "email", email, password: TEST_PASSWORD }, cookie);
    const jobs = await selectWhere("jobs", "payload", "kind", MAIL_JOB);
    const mail = jobs
      .map((row) => JSON.parse(row.payload) as { to: string; text: string })
      .find((message) => message.to === email)!;
    return new URL(/http:\/\/\S+\/settings\/confirm-email\?token=\S+/.exec(mail.text)![0]);
  }

  it("opening the link changes nothing; its Confirm button does, once", async () => {
    const { user, cookie } = await createTestUser();
    const link = await linkFor(cookie, "confirmed@example.com");
    const path = `${link.pathname}${link.search}`;
    const opened = await callRoute(confirmPage.loader, makeRequest(path, { cookie }));
    expect(opened.status).toBe(200);
    expect(opened.headers.get("Cache-Control")).toBe("no-store");
    expect(await opened.json()).toMatchObject({ valid: true, newEmail: "confirmed@example.com" });
    expect((await userRow(user.id)).email).toBe(user.email);

    const token = link.searchParams.get("token")!;
    const confirmed = await callRoute(confirmPage.action, formRequest(path, { token }, { cookie }));
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/settings");
    expect((await userRow(user.id)).email).toBe("confirmed@example.com");
    // The same session still works after the change.
    expect((await callRoute(profileTab.loader, makeRequest("/settings", { cookie }))).status).toBe(
      200,
    );

    const again = await callRoute(confirmPage.action, formRequest(path, { token }, { cookie }));
    expect(again.status).toBe(400);
    const reopened = await callRoute(confirmPage.loader, makeRequest(path, { cookie }));
    expect(await reopened.json()).toMatchObject({
      valid: false,
      message: expect.stringMatching(/not valid or was already used/),
    });
  });

  it("needs the owner signed in: a visitor is sent to sign in, another account's session cannot use it", async () => {
    const { user, cookie } = await createTestUser();
    const link = await linkFor(cookie, "owner-only@example.com");
    const path = `${link.pathname}${link.search}`;
    const visitor = await callRoute(confirmPage.loader, makeRequest(path));
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toMatch(
      /^\/auth\?redirectTo=%2Fsettings%2Fconfirm-email/,
    );
    const stranger = await createTestUser();
    const refused = await callRoute(
      confirmPage.action,
      formRequest(path, { token: link.searchParams.get("token")! }, { cookie: stranger.cookie }),
    );
    expect(refused.status).toBe(400);
    expect((await userRow(user.id)).email).toBe(user.email);
    expect((await userRow(stranger.user.id)).email).toBe(stranger.user.email);
  });
});
