import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getConfig, type Config } from "~/infra/config.server";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { emptyDatabase } from "#tests/setup/ledger-fixtures";
import { testTies } from "#tests/setup/ties";
import { MAIL_JOB } from "~/features/mail/mail-job.server";
import { beginErasure } from "~/features/erasure/erase-account.server";
import {
  action as unsubscribeAction,
  loader as unsubscribeLoader,
} from "~/routes/_market+/follows.unsubscribe";
import { action as followFormAction } from "~/routes/_market+/follow";
import {
  confirmFollow,
  dropFollowerAddress,
  followerCount,
  sendFollowDigests,
} from "./follows.server";
import { followIdOfToken, unsubscribeToken } from "./follow-links.server";
import { selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

/**
 * Following a creator (issue 47): an address follows by a mailed link, gets at
 * most one digest a day of the creator's new listings, and every mail of the
 * follow can end it with one POST; the creator sees a count only.
 */

const followsApi = apiRoute("/api/follows");
const accountApi = apiRoute("/api/account");
const ORIGIN_OF_MAIL = "http://localhost:3000";
const HOUR = 60 * 60 * 1000;

const config = getConfig() as Config & { FOLLOWS_PER_ADDRESS: number };
const saved = config.FOLLOWS_PER_ADDRESS;
let ipCounter = 0;
const nextIp = () => `198.51.100.${++ipCounter}`;

/** Each test's addresses are its own: the per-email limit counts in this process's memory across tests. */
let run = 0;
const at = (name: string) => `${name}-${run}@example.com`;
beforeEach(async () => {
  run += 1;
  await emptyDatabase();
});
afterEach(() => {
  config.FOLLOWS_PER_ADDRESS = saved;
});

interface QueuedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

async function mailTo(email: string): Promise<QueuedMail[]> {
  const rows = await selectWhere("jobs", "payload", "kind", MAIL_JOB, "created_at");
  return rows
    .map((row) => JSON.parse(row.payload) as QueuedMail)
    .filter((mail) => mail.to === email);
}

async function follow(body: Record<string, unknown>, ip = nextIp()) {
  return callRoute(
    followsApi.action,
    makeRequest("/api/follows", { json: body }),
    {},
    { ties: testTies, clientIp: ip, nonce: "test" },
  );
}

async function creatorWithHandle(handle: string) {
  const creator = await createTestUser({ firstName: "Ada", lastName: "Lovelace" });
  await updateWhere("users", { handle }, "id", creator.user.id);
  return creator;
}

function confirmTokenOf(mail: QueuedMail): string {
  const match = /\/follows\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error("No confirmation link");
  return match[1]!;
}

function unsubscribeUrlOf(mail: QueuedMail): string {
  const match = /^<(.+)>$/.exec(mail.headers?.["List-Unsubscribe"] ?? "");
  if (!match) throw new Error("No List-Unsubscribe header");
  return match[1]!;
}

/** Follows and confirms (the confirmation `at`): the follow's first mail. */
async function confirmedFollow(handle: string, email: string, at: Date) {
  expect((await follow({ handle, email })).status).toBe(202);
  const [mail] = await mailTo(email);
  await confirmFollow(getDb(), { token: confirmTokenOf(mail!), now: at });
  return mail!;
}

describe("POST /api/follows", () => {
  it("answers 202 and mails a confirmation link that carries the one-click unsubscribe headers", async () => {
    await creatorWithHandle("ada");
    const sent = await follow({ handle: "ada", email: at("Fan") });
    expect(sent.status).toBe(202);
    expect(await sent.json()).toEqual({ message: expect.stringContaining("confirm") });
    const mails = await mailTo(at("Fan"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/Confirm/);
    expect(mails[0]!.headers).toEqual({
      "List-Unsubscribe": expect.stringMatching(
        /^<http:\/\/localhost:\d+\/follows\/unsubscribe\?token=[^>]+>$/,
      ),
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(mails[0]!.text).toContain(unsubscribeUrlOf(mails[0]!));
    const rows = await getDb().selectFrom("follows").selectAll().execute();
    expect(rows).toEqual([
      expect.objectContaining({ email_key: at("fan"), status: "unconfirmed" }),
    ]);
    // Only the token's hash is kept.
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.token_hash).not.toBe(confirmTokenOf(mails[0]!));
  });

  it("is one follow for the same address again; a confirmed one is mailed nothing more", async () => {
    await creatorWithHandle("ada");
    await follow({ handle: "ada", email: at("fan") });
    await follow({ handle: "ada", email: at("FAN") });
    expect(await getDb().selectFrom("follows").select("id").execute()).toHaveLength(1);
    const mails = await mailTo(at("FAN"));
    await confirmFollow(getDb(), { token: confirmTokenOf(mails[0]!), now: new Date() });
    expect(await follow({ handle: "ada", email: at("fan") })).toHaveProperty("status", 202);
    expect(await mailTo(at("fan"))).toHaveLength(1);
    expect(
      (await getDb().selectFrom("follows").select("status").execute()).map((r) => r.status),
    ).toEqual(["confirmed"]);
  });

  it("is a 404 for an unknown or banned storefront, a 400 for a bad address, a 429 past the limit; nothing is stored", async () => {
    const creator = await creatorWithHandle("ada");
    expect((await follow({ handle: "nobody", email: at("a") })).status).toBe(404);
    expect((await follow({ handle: "ada", email: "not an address" })).status).toBe(400);
    expect((await follow({ handle: "ada" })).status).toBe(400);
    await updateWhere("users", { banned: 1 }, "id", creator.user.id);
    expect((await follow({ handle: "ada", email: at("a") })).status).toBe(404);
    await updateWhere("users", { banned: 0 }, "id", creator.user.id);
    config.FOLLOWS_PER_ADDRESS = 1;
    const ip = nextIp();
    expect((await follow({ handle: "ada", email: at("b") }, ip)).status).toBe(202);
    const limited = await follow({ handle: "ada", email: at("c") }, ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBeTruthy();
    expect(
      (await getDb().selectFrom("follows").select("email_key").execute()).map((r) => r.email_key),
    ).toEqual([at("b")]);
  });

  it("the Follow form without JavaScript lands on /follow?sent=1; a bad address comes back with its error", async () => {
    await creatorWithHandle("ada");
    const done = await callRoute(
      followFormAction,
      formRequest("/follow", { handle: "ada", email: at("form") }),
    );
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/follow?sent=1");
    const refused = await callRoute(
      followFormAction,
      formRequest("/follow", { handle: "ada", email: "nope" }),
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain("valid email");
  });
});

describe("a confirmation link", () => {
  it("confirms once; an unknown or expired one is a 404", async () => {
    await creatorWithHandle("ada");
    const sentAt = new Date();
    await follow({ handle: "ada", email: at("fan") });
    const token = confirmTokenOf((await mailTo(at("fan")))[0]!);
    await expect(
      confirmFollow(getDb(), { token, now: new Date(sentAt.getTime() + 8 * 24 * HOUR) }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(confirmFollow(getDb(), { token: "nope", now: sentAt })).rejects.toMatchObject({
      status: 404,
    });
    expect(await confirmFollow(getDb(), { token, now: sentAt })).toEqual({
      status: "confirmed",
      handle: "ada",
    });
    const row = await getDb().selectFrom("follows").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "confirmed", token_hash: null });
  });
});

describe("the one-click unsubscribe", () => {
  it("a POST to the List-Unsubscribe address (no body needed) ends the follow at once and deletes the address", async () => {
    await creatorWithHandle("ada");
    const mail = await confirmedFollow("ada", at("fan"), new Date());
    const url = new URL(unsubscribeUrlOf(mail));
    // Opening it changes nothing.
    await callRoute(unsubscribeLoader, makeRequest(url.pathname + url.search));
    expect(await getDb().selectFrom("follows").select("id").execute()).toHaveLength(1);
    const oneClick = await callRoute(
      unsubscribeAction,
      formRequest(
        url.pathname + url.search,
        { "List-Unsubscribe": "One-Click" },
        { origin: "none" },
      ),
    );
    expect(oneClick.status).toBe(200);
    expect(await oneClick.json()).toEqual({ ended: true, message: null });
    expect(await getDb().selectFrom("follows").select("id").execute()).toEqual([]);
    // Again: the same answer.
    const again = await callRoute(
      unsubscribeAction,
      makeRequest(url.pathname + url.search, { method: "POST", origin: "none" }),
    );
    expect(again.status).toBe(200);
  });

  it("a token whose signature is wrong is a 404 and ends nothing", async () => {
    await creatorWithHandle("ada");
    await confirmedFollow("ada", at("fan"), new Date());
    const { id } = await getDb().selectFrom("follows").select("id").executeTakeFirstOrThrow();
    expect(followIdOfToken(unsubscribeToken(id))).toBe(id);
    const forged = `${id}.${"A".repeat(43)}`;
    expect(followIdOfToken(forged)).toBeNull();
    const refused = await callRoute(
      unsubscribeAction,
      makeRequest(`/follows/unsubscribe?token=${encodeURIComponent(forged)}`, {
        method: "POST",
        origin: "none",
      }),
    );
    expect(refused.status).toBe(404);
    expect(await getDb().selectFrom("follows").select("id").execute()).toHaveLength(1);
  });
});

describe("the digest", () => {
  it("is one mail a day at most, with the creator's new listings, to confirmed follows only", async () => {
    const creator = await creatorWithHandle("ada");
    const before = new Date(Date.now() - 60_000);
    const first = await confirmedFollow("ada", at("fan"), before);
    await follow({ handle: "ada", email: at("unconfirmed") });
    // Nothing new yet: no digest.
    expect(await sendFollowDigests(getDb(), { origin: ORIGIN_OF_MAIL, now: new Date() })).toBe(0);

    await createListing(creator.user.id, { title: "Sunrise", price: 12 });
    const now = new Date();
    expect(await sendFollowDigests(getDb(), { origin: ORIGIN_OF_MAIL, now })).toBe(1);
    expect(await sendFollowDigests(getDb(), { origin: ORIGIN_OF_MAIL, now })).toBe(0);
    const digests = (await mailTo(at("fan"))).filter((mail) => mail !== undefined);
    expect(digests).toHaveLength(2);
    const digest = digests[1]!;
    expect(digest.subject).toMatch(/New on/);
    expect(digest.text).toContain("Sunrise ($12.00)");
    expect(digest.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(unsubscribeUrlOf(digest)).toBe(
      unsubscribeUrlOf(first).replace(/^http:\/\/[^/]+/, ORIGIN_OF_MAIL),
    );
    expect(await mailTo(at("unconfirmed"))).toHaveLength(1);

    // A new listing within the day waits for the next day's digest, alone.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await createListing(creator.user.id, { title: "Noon" });
    const later = new Date(now.getTime() + 2 * HOUR);
    expect(await sendFollowDigests(getDb(), { origin: ORIGIN_OF_MAIL, now: later })).toBe(0);
    const nextDay = new Date(now.getTime() + 24 * HOUR);
    expect(await sendFollowDigests(getDb(), { origin: ORIGIN_OF_MAIL, now: nextDay })).toBe(1);
    const last = (await mailTo(at("fan"))).at(-1)!;
    expect(last.text).toContain("Noon");
    expect(last.text).not.toContain("Sunrise");
  });

  it("two runs at once queue one digest per follow between them", async () => {
    const creator = await creatorWithHandle("ada");
    await confirmedFollow("ada", at("fan"), new Date(Date.now() - 60_000));
    await confirmedFollow("ada", at("other"), new Date(Date.now() - 60_000));
    await createListing(creator.user.id, { title: "Sunrise" });
    const now = new Date(Date.now() + 1000);
    const [a, b] = await Promise.all([
      sendFollowDigests(getDb(), { origin: ORIGIN_OF_MAIL, now }),
      sendFollowDigests(getDb(), { origin: ORIGIN_OF_MAIL, now }),
    ]);
    expect(a + b).toBe(2);
    expect(await mailTo(at("fan"))).toHaveLength(2);
    expect(await mailTo(at("other"))).toHaveLength(2);
  });
});

describe("what a creator and the admin see", () => {
  it("GET /api/account answers the confirmed follower count, never an address", async () => {
    const creator = await creatorWithHandle("ada");
    await confirmedFollow("ada", at("fan"), new Date());
    await follow({ handle: "ada", email: at("unconfirmed") });
    const answer = await callRoute(
      accountApi.loader,
      makeRequest("/api/account", { token: creator.token }),
    );
    expect(answer.status).toBe(200);
    const body = await answer.text();
    expect(JSON.parse(body)).toMatchObject({ followers: 1 });
    expect(body).not.toContain(at("fan"));
    expect(await followerCount(getDb(), creator.user.id)).toBe(1);
  });

  it("the admin drops an address: every follow of it goes, audited by count", async () => {
    const admin = await createTestAdmin();
    await creatorWithHandle("ada");
    await creatorWithHandle("bob");
    await confirmedFollow("ada", at("Bounce"), new Date());
    await follow({ handle: "bob", email: at("bounce") });
    await follow({ handle: "bob", email: at("keep") });
    expect(
      await dropFollowerAddress(getDb(), {
        email: at("BOUNCE"),
        adminId: admin.user.id,
        now: new Date(),
      }),
    ).toEqual({ dropped: 2 });
    expect(
      (await getDb().selectFrom("follows").select("email_key").execute()).map((r) => r.email_key),
    ).toEqual([at("keep")]);
    const audit = await selectWhere("audit_log", ["action", "detail"], "action", "follow.drop");
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).not.toContain("bounce");
  });

  it("an erasure takes the creator's followers and the follows made with the person's address", async () => {
    const admin = await createTestAdmin();
    const ada = await creatorWithHandle("ada");
    const bob = await creatorWithHandle("bob");
    await confirmedFollow("ada", at("fan"), new Date());
    await confirmedFollow("bob", ada.user.email, new Date());
    await confirmedFollow("bob", at("stays"), new Date());
    await beginErasure(getDb(), { actorId: admin.user.id, userId: ada.user.id, now: new Date() });
    const left = await getDb().selectFrom("follows").select(["email_key", "creator_id"]).execute();
    expect(left).toEqual([{ email_key: at("stays"), creator_id: bob.user.id }]);
  });
});
