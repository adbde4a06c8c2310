import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { MAIL_JOB } from "~/features/mail/public.server";
import * as auth from "~/routes/_auth+/auth";
import * as confirm from "~/routes/_auth+/confirm-registration";
import * as root from "~/root";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { queuedMailTo } from "#tests/setup/mail-queue";
import { apiRoute } from "#tests/setup/api-routes";
import { beginErasure } from "~/features/erasure/erase-account.server";
import { inviteEntry } from "~/features/accounts/registration/waitlist.server";
import { registrationEmailHash } from "~/features/accounts/registration/registration-links.server";
import { testTies } from "#tests/setup/ties";
import { rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";

const registerApi = apiRoute("/api/register");

/**
 * Registration (while open) tells nothing about which emails have accounts:
 * a taken email and a new one get the same answer, and the address is mailed
 * either a link that creates the account or a notice that someone tried.
 */

const registration = getConfig().REGISTRATION;
let address = 0;
beforeEach(async () => {
  (getConfig() as { REGISTRATION: string }).REGISTRATION = "open";
  await getDb().deleteFrom("jobs").execute();
});
afterEach(() => {
  (getConfig() as { REGISTRATION: string }).REGISTRATION = registration;
});

const person = (email: string) => ({
  email,
  password: "a-fresh-passphrase",
  firstName: "Nia",
  lastName: "New",
});
const apiRegister = (json: unknown) =>
  callRoute(
    registerApi.action,
    makeRequest("/api/register", { json }),
    {},
    { ties: testTies, clientIp: `192.0.2.${++address}`, nonce: "test" },
  );
const webRegister = (fields: Record<string, string>) =>
  callRoute(
    auth.action,
    formRequest("/auth", { intent: "register", ...fields }),
    {},
    { ties: testTies, clientIp: `192.0.2.${++address}`, nonce: "test" },
  );
const linkIn = (text: string) =>
  /http:\/\/localhost:3000\/confirm-registration\?token=\S+/.exec(text)?.[0];

describe("POST /api/register", () => {
  it("answers a taken email exactly as a new one, creates nothing yet, and mails each address", async () => {
    const { user: owner } = await createTestUser({ email: "taken@example.com" });
    const users = async () =>
      (await getDb().selectFrom("users").select("email").execute()).map((row) => row.email);
    const before = await users();

    const fresh = await apiRegister(person("fresh@example.com"));
    const taken = await apiRegister(person("Taken@Example.com"));
    expect(taken.status).toBe(fresh.status);
    expect(fresh.status).toBe(202);
    const [freshBody, takenBody] = [await fresh.json(), await taken.json()];
    expect(takenBody).toEqual(freshBody);
    expect(freshBody).toEqual({ message: expect.stringContaining("check your email") });
    expect(fresh.headers.getSetCookie()).toEqual([]);
    expect(await users()).toEqual(before);

    const [notice] = await queuedMailTo(owner.email);
    expect(notice.subject).toMatch(/someone tried to create an account/i);
    expect(notice.text).toContain("http://localhost:3000/forgot-password");
    expect(linkIn(notice.text)).toBeUndefined();
    const [welcome] = await queuedMailTo("fresh@example.com");
    expect(linkIn(welcome.text)).toBeDefined();
  });

  it("refuses bad input with 400 and is 403 while closed", async () => {
    expect((await apiRegister({ email: "x" })).status).toBe(400);
    (getConfig() as { REGISTRATION: string }).REGISTRATION = "closed";
    expect((await apiRegister(person("closed@example.com"))).status).toBe(403);
    expect(await rowsWhere("jobs", "kind", MAIL_JOB)).toEqual([]);
  });
});

describe("/auth Register and the mailed link", () => {
  it("shows the same notice for a taken and a new email; the link's page creates the account on its button and signs in", async () => {
    await createTestUser({ email: "web-taken@example.com" });
    const notices = [];
    for (const email of ["web-taken@example.com", "web-new@example.com"]) {
      const response = await webRegister(person(email));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/auth");
      const next = await callRoute(
        root.loader,
        makeRequest("/auth", { cookie: cookiesFrom(response) }),
      );
      notices.push((await next.json()).flash);
    }
    expect(notices[0]).toEqual(notices[1]);
    expect(notices[0]).toMatchObject({ kind: "info", title: "Check your email" });

    const [welcome] = await queuedMailTo("web-new@example.com");
    const link = linkIn(welcome.text)!;
    const path = link.slice("http://localhost:3000".length);
    // Opening the link (a GET) creates nothing.
    const page = await callRoute(confirm.loader, makeRequest(path));
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({ email: "web-new@example.com" });
    expect(await rowsWhere("users", "email", "web-new@example.com")).toEqual([]);

    const created = await callRoute(
      confirm.action,
      formRequest(path, { token: new URL(link).searchParams.get("token")! }),
    );
    expect(created.status).toBe(302);
    const home = await callRoute(
      root.loader,
      makeRequest("/dashboard", { cookie: cookiesFrom(created) }),
    );
    expect((await home.json()).user).toMatchObject({
      email: "web-new@example.com",
      firstName: "Nia",
    });

    // The link works once.
    const again = await callRoute(
      confirm.action,
      formRequest(path, { token: new URL(link).searchParams.get("token")! }),
    );
    expect(again.status).toBe(400);
  });
});

describe("registration links", () => {
  /** Registers `email` over the API and answers the mailed link's token. */
  async function linkFor(email: string) {
    expect((await apiRegister(person(email))).status).toBe(202);
    const mails = await queuedMailTo(email);
    return new URL(linkIn(mails.at(-1)!.text)!).searchParams.get("token")!;
  }
  const use = (token: string) =>
    callRoute(confirm.action, formRequest("/confirm-registration", { token }));
  const accountsOf = async (email: string) => selectWhere("users", "id", "email", email);

  it("work once: a used link no longer creates an account, not even after that account was erased", async () => {
    const token = await linkFor("once@example.com");
    expect((await use(token)).status).toBe(302);
    const [account] = await accountsOf("once@example.com");
    await beginErasure(getDb(), { actorId: account.id, userId: account.id, now: new Date() });
    expect(await accountsOf("once@example.com")).toEqual([]);

    const reused = await use(token);
    expect(reused.status).toBe(400);
    expect(await accountsOf("once@example.com")).toEqual([]);
    // Only a hash of the link's nonce was stored, and it is gone once used.
    expect(
      await rowsWhere(
        "registration_links",
        "email_hash",
        registrationEmailHash("once@example.com"),
      ),
    ).toEqual([]);
  });

  it("a link made before the address's account was erased is refused after the erasure", async () => {
    const older = await linkFor("twice@example.com");
    const newer = await linkFor("twice@example.com");
    expect((await use(newer)).status).toBe(302);
    const [account] = await accountsOf("twice@example.com");
    await beginErasure(getDb(), { actorId: account.id, userId: account.id, now: new Date() });
    expect((await use(older)).status).toBe(400);
    expect(await accountsOf("twice@example.com")).toEqual([]);
  });

  it("create nothing once registration is closed, unless the address holds a waiting invitation", async () => {
    const token = await linkFor("late@example.com");
    const invited = await linkFor("invited@example.com");
    (getConfig() as { REGISTRATION: string }).REGISTRATION = "closed";
    const refused = await use(token);
    expect(refused.status).toBe(403);
    expect(await accountsOf("late@example.com")).toEqual([]);
    const status = await callRoute(
      confirm.loader,
      makeRequest(`/confirm-registration?token=${encodeURIComponent(token)}`),
    );
    expect(await status.json()).toMatchObject({ valid: false });

    // An invitation opens registration for its address: the link works and spends it.
    const { id: adminId } = (await createTestUser()).user;
    await getDb()
      .insertInto("waitlist")
      .values({
        id: "late-entry",
        email: "invited@example.com",
        created_at: new Date().toISOString(),
      })
      .execute();
    await inviteEntry(getDb(), {
      entryId: "late-entry",
      adminId,
      spots: undefined,
      now: new Date(),
    });
    expect((await use(invited)).status).toBe(302);
    const entry = await rowWhere("waitlist", ["invite_used_at", "user_id"], "id", "late-entry");
    expect(entry.invite_used_at).not.toBeNull();
    expect(entry.user_id).toBe((await accountsOf("invited@example.com"))[0].id);
  });
});
