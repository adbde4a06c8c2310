import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig, type Config } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { invoke } from "~/infra/procedure.server";
import { callContext } from "~/web/request-context.server";
import {
  adminWaitlist,
  betaStatus,
  invitationStatus,
  inviteFromWaitlist,
  joinWaitlist,
  registerInvited,
} from "~/features/accounts/registration/waitlist.procedures.server";
import {
  INVITATION_EXPIRED,
  INVITATION_INVALID,
  NO_SPOTS_LEFT,
  WAITLIST_JOINED,
} from "~/features/accounts/registration/waitlist.server";
import * as auth from "~/routes/_auth+/auth";
import * as root from "~/root";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { queuedMailTo } from "#tests/setup/mail-queue";
import { testTies } from "#tests/setup/ties";
import { firstRowWhere, rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";
import { httpFailure } from "#tests/setup/errors";

/**
 * The beta's waitlist: an address joins once (throttled per client address,
 * confirmed by mail), the admin invites it with a single-use link valid 7
 * days that opens registration for that address only, and BETA_SPOTS counts
 * the invitations that made an account or still wait.
 */

const config = getConfig() as Config & {
  BETA_SPOTS?: number;
  WAITLIST_REQUESTS_PER_ADDRESS: number;
  REGISTRATION: string;
};
const saved = {
  spots: config.BETA_SPOTS,
  perAddress: config.WAITLIST_REQUESTS_PER_ADDRESS,
  registration: config.REGISTRATION,
};
let address = 0;
beforeEach(async () => {
  config.REGISTRATION = "closed";
  await getDb().deleteFrom("jobs").execute();
});
afterEach(() => {
  config.BETA_SPOTS = saved.spots;
  config.WAITLIST_REQUESTS_PER_ADDRESS = saved.perAddress;
  config.REGISTRATION = saved.registration;
});

const DAY = 24 * 60 * 60 * 1000;
const ctxAt = (ip: string, now = new Date()) => ({
  ...callContext(makeRequest("/auth"), { ties: testTies }),
  clientIp: ip,
  now,
});
const join = (email: string, ip = `198.51.100.${++address}`, now = new Date()) =>
  invoke(joinWaitlist, null, { email }, ctxAt(ip, now));
const tokenIn = (text: string) => /invite=([A-Za-z0-9_-]+)/.exec(text)?.[1];

async function entryOf(email: string) {
  return rowWhere("waitlist", "*", "email", email);
}

async function invite(email: string, now = new Date()) {
  const admin = await adminUser();
  const entry = await entryOf(email);
  await invoke(inviteFromWaitlist, admin, { entryId: entry.id }, ctxAt("192.0.2.1", now));
  const mails = await queuedMailTo(email);
  const token = tokenIn(mails[mails.length - 1].text);
  expect(token).toBeDefined();
  return token!;
}

describe("joining the waitlist", () => {
  it("records an address once and answers a second request (any case) exactly as the first: it tells nothing about who is on the list", async () => {
    expect(await join("once@example.com")).toEqual({ joined: true, message: WAITLIST_JOINED });
    expect(await join("Once@Example.com")).toEqual({ joined: true, message: WAITLIST_JOINED });
    expect(await selectWhere("waitlist", "id", "email", "once@example.com")).toHaveLength(1);
    // The answer says a confirmation was sent: it is, each time (within the recipient's limit).
    const mails = await queuedMailTo("once@example.com");
    expect(mails).toHaveLength(2);
    expect(mails.map((mail) => mail.subject)).toEqual([
      "You're on the Selfie Studio waitlist",
      "You're on the Selfie Studio waitlist",
    ]);
    // The answer to a known address tells nothing more: not invited, not whether it has an account.
    await createTestUser({ email: "member@example.com" });
    expect(await join("member@example.com")).toEqual({ joined: true, message: WAITLIST_JOINED });
    expect(await join("member@example.com")).toEqual({ joined: true, message: WAITLIST_JOINED });
  });

  it("is throttled per client address (WAITLIST_REQUESTS_PER_ADDRESS an hour); another address is not held back", async () => {
    config.WAITLIST_REQUESTS_PER_ADDRESS = 2;
    const ip = "198.51.100.250";
    await join("t1@example.com", ip);
    await join("t2@example.com", ip);
    const third = await httpFailure(join("t3@example.com", ip));
    expect(third.status).toBe(429);
    expect(third.message).toMatch(
      /Too many waitlist requests from your network\. Try again in \d+ minutes?\./,
    );
    expect(await rowsWhere("waitlist", "email", "t3@example.com")).toEqual([]);
    expect((await join("t3@example.com", "198.51.100.251")).joined).toBe(true);
    // An hour later the address may ask again.
    expect((await join("t4@example.com", ip, new Date(Date.now() + 61 * 60 * 1000))).joined).toBe(
      true,
    );
  });

  it("refuses a malformed address with 400 and records nothing", async () => {
    expect((await httpFailure(join("not-an-email"))).status).toBe(400);
    expect(await rowsWhere("waitlist", "email", "not-an-email")).toEqual([]);
  });
});

describe("invitations", () => {
  it("mail a link that registers that address only, once, while registration is closed", async () => {
    await join("invited@example.com");
    const token = await invite("invited@example.com");
    const [, invitation] = await queuedMailTo("invited@example.com");
    expect(invitation.subject).toBe("Your invitation to Selfie Studio");
    expect(invitation.text).toContain(`http://localhost:3000/auth?tab=register&invite=${token}`);
    expect(invitation.text).toContain("within 7 days");

    expect(await invoke(invitationStatus, null, { invite: token }, ctxAt("192.0.2.2"))).toEqual({
      valid: true,
      email: "invited@example.com",
      message: null,
    });
    // The form takes no email: whatever else is posted, the account is the invitation's address.
    const created = await invoke(
      registerInvited,
      null,
      {
        invite: token,
        firstName: "Ivy",
        lastName: "Invited",
        password: "a-fresh-passphrase",
        email: "someone-else@example.com",
      },
      ctxAt("192.0.2.3"),
    );
    expect(created.email).toBe("invited@example.com");
    expect(await rowsWhere("users", "email", "someone-else@example.com")).toEqual([]);
    expect(await entryOf("invited@example.com")).toMatchObject({
      user_id: created.id,
      invite_used_at: expect.any(String),
    });

    // Single use.
    const again = await httpFailure(
      invoke(
        registerInvited,
        null,
        { invite: token, firstName: "Ivy", lastName: "Again", password: "a-fresh-passphrase" },
        ctxAt("192.0.2.4"),
      ),
    );
    expect([again.status, again.message]).toEqual([400, INVITATION_INVALID]);
    expect(
      (await invoke(adminWaitlist, await adminUser(), {}, ctxAt("192.0.2.1"))).entries.find(
        (e) => e.email === "invited@example.com",
      )?.state,
    ).toBe("joined");
  });

  it("stop working after 7 days, and an unknown or replaced token opens nothing", async () => {
    await join("late@example.com");
    const sentAt = new Date();
    const token = await invite("late@example.com", sentAt);
    const person = {
      invite: token,
      firstName: "Lee",
      lastName: "Late",
      password: "a-fresh-passphrase",
    };
    const expired = await httpFailure(
      invoke(
        registerInvited,
        null,
        person,
        ctxAt("192.0.2.5", new Date(sentAt.getTime() + 7 * DAY + 1000)),
      ),
    );
    expect([expired.status, expired.message]).toEqual([400, INVITATION_EXPIRED]);
    expect(
      (
        await httpFailure(
          invoke(registerInvited, null, { ...person, invite: "made-up-token" }, ctxAt("192.0.2.6")),
        )
      ).message,
    ).toBe(INVITATION_INVALID);

    // Invited again: the newer link replaces the older one, which no longer works.
    const newer = await invite("late@example.com", new Date(sentAt.getTime() + 8 * DAY));
    const later = new Date(sentAt.getTime() + 8 * DAY + 60_000);
    expect(
      (await httpFailure(invoke(registerInvited, null, person, ctxAt("192.0.2.7", later)))).message,
    ).toBe(INVITATION_INVALID);
    const user = await invoke(
      registerInvited,
      null,
      { ...person, invite: newer },
      ctxAt("192.0.2.8", later),
    );
    expect(user.email).toBe("late@example.com");
  });

  it("through the Register tab: the link's page names the address, its form creates the account and signs in", async () => {
    await join("tab@example.com");
    const token = await invite("tab@example.com");
    const page = await callRoute(auth.loader, makeRequest(`/auth?tab=register&invite=${token}`));
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(await page.json()).toMatchObject({
      tab: "register",
      invitation: { valid: true, email: "tab@example.com" },
    });
    const created = await callRoute(
      auth.action,
      formRequest(`/auth?tab=register&invite=${token}`, {
        intent: "register-invited",
        invite: token,
        firstName: "Tab",
        lastName: "User",
        password: "a-fresh-passphrase",
      }),
      {},
      { ties: testTies, clientIp: "192.0.2.9", nonce: "test" },
    );
    expect(created.status).toBe(302);
    expect(created.headers.get("Location")).toBe("/dashboard");
    const home = await callRoute(
      root.loader,
      makeRequest("/dashboard", { cookie: cookiesFrom(created) }),
    );
    expect((await home.json()).user).toMatchObject({ email: "tab@example.com", firstName: "Tab" });
  });

  it("the waitlist form answers on the Register tab the same, whether the address was on the list or not", async () => {
    const post = () =>
      callRoute(
        auth.action,
        formRequest("/auth?tab=register", { intent: "waitlist", email: "form@example.com" }),
        {},
        { ties: testTies, clientIp: "192.0.2.10", nonce: "test" },
      );
    expect((await post()).headers.get("Location")).toBe(
      "/auth?tab=register&waitlist=joined#waitlist",
    );
    expect((await post()).headers.get("Location")).toBe(
      "/auth?tab=register&waitlist=joined#waitlist",
    );
  });
});

/** The super admin, made on first use. */
async function adminUser() {
  const found = await firstRowWhere("users", "*", "id", "super-admin");
  return found ?? (await createTestAdmin()).user;
}

describe("BETA_SPOTS", () => {
  it("counts spots left as BETA_SPOTS minus invitations that made an account or still wait; an expired one gives its spot back", async () => {
    await getDb().deleteFrom("waitlist").execute();
    const start = new Date();
    const status = async (now = start) =>
      (await invoke(betaStatus, null, {}, ctxAt("192.0.2.11", now))).spots;
    config.BETA_SPOTS = 2;
    for (const email of ["s1@example.com", "s2@example.com", "s3@example.com"]) await join(email);
    expect(await status()).toEqual({ total: 2, left: 2 });
    const first = await invite("s1@example.com", start);
    expect(await status()).toEqual({ total: 2, left: 1 });
    await invite("s2@example.com", start);
    expect(await status()).toEqual({ total: 2, left: 0 });
    // Full: a third invitation is refused, and nothing is mailed.
    const admin = await adminUser();
    const full = await httpFailure(
      invoke(
        inviteFromWaitlist,
        admin,
        { entryId: (await entryOf("s3@example.com")).id },
        ctxAt("192.0.2.1", start),
      ),
    );
    expect([full.status, full.message]).toEqual([409, NO_SPOTS_LEFT]);
    expect(await queuedMailTo("s3@example.com")).toHaveLength(1); // the confirmation only
    // Inviting again someone whose invitation still waits takes no new spot.
    await invite("s2@example.com", start);
    expect(await status()).toEqual({ total: 2, left: 0 });

    // s1 registers (a spot for good); s2's invitation runs out unused: its spot comes back.
    await invoke(
      registerInvited,
      null,
      { invite: first, firstName: "S", lastName: "One", password: "a-fresh-passphrase" },
      ctxAt("192.0.2.12", start),
    );
    expect(await status(new Date(start.getTime() + 8 * DAY))).toEqual({ total: 2, left: 1 });
    const listed = await invoke(
      adminWaitlist,
      admin,
      {},
      ctxAt("192.0.2.1", new Date(start.getTime() + 8 * DAY)),
    );
    expect(listed.spots).toEqual({ total: 2, left: 1 });
    // (Sorted here: the three joined in the same millisecond, where the list's own order is by random id.)
    expect(listed.entries.map((entry) => [entry.email, entry.state]).sort()).toEqual([
      ["s1@example.com", "joined"],
      ["s2@example.com", "expired"],
      ["s3@example.com", "waiting"],
    ]);
  });
});
