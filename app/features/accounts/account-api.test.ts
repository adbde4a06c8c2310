import sharp from "sharp";
import { describe, expect, it } from "vitest";
import * as media from "~/routes/_resources+/media.$";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { plainContext } from "~/infra/call-context.server";
import { invoke } from "~/infra/procedure.server";
import type { HttpError } from "~/infra/errors.server";
import { sha256 } from "~/infra/ids.server";
import { MAIL_JOB } from "~/features/mail/public.server";
import {
  confirmEmailChange,
  requestEmailChange,
} from "~/features/accounts/profile/procedures.server";
import { userForApiToken } from "~/features/accounts/sessions/sessions.server";
import { EMAIL_IN_USE } from "~/features/accounts/profile/email-change.server";
import { findUserById } from "~/features/accounts/users.server";
import { AVATAR_SIZE, avatarKeyOf } from "~/features/accounts/profile/avatar.server";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { fixture, jpegWithGpsAndRotation, uploadRequest } from "#tests/setup/studio";
import { apiRoutes } from "#tests/setup/api-routes";
import { httpFailure } from "#tests/setup/errors";
import { testTies } from "#tests/setup/ties";
import { rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const { accountRoute, avatarRoute, emailRoute, confirmRoute } = apiRoutes({
  accountRoute: "/api/account",
  avatarRoute: "/api/account/avatar",
  emailRoute: "/api/account/email",
  confirmRoute: "/api/account/email/confirm",
});

const db = () => getDb();
const userRow = async (id: string) => (await findUserById(db(), id))!;

async function patch(json: unknown, auth: { token?: string; cookie?: string }) {
  const response = await callRoute(
    accountRoute.action,
    makeRequest("/api/account", { method: "PATCH", json, ...auth }),
  );
  return { status: response.status, body: await response.json() };
}

const sendAvatar = (request: Request) => callRoute(avatarRoute.action, request);
const avatarRequest = (data: Uint8Array, options: Parameters<typeof uploadRequest>[1] = {}) =>
  uploadRequest(data, { url: "/api/account/avatar", ...options });

async function fetchMedia(url: string, headers: Record<string, string> = {}) {
  const key = new URL(url, "http://localhost").pathname.replace(/^\/media\//, "");
  return callRoute(media.loader, makeRequest(url, { headers }), { "*": key });
}

/** The mail jobs queued to one address, newest last. */
async function mailTo(address: string) {
  const rows = await selectWhere("jobs", "payload", "kind", MAIL_JOB, "created_at");
  return rows
    .map((row) => JSON.parse(row.payload) as { to: string; subject: string; text: string })
    .filter((mail) => mail.to === address);
}

const tokenIn = (text: string) =>
  new URL(/http:\/\/\S+\/settings\/confirm-email\?token=\S+/.exec(text)![0]).searchParams.get(
    "token",
  )!;

describe("GET /api/account", () => {
  it("answers the caller's own account in the documented shape, and 401 signed out", async () => {
    const { user, token } = await createTestUser({
      firstName: "Cora",
      lastName: "Creator",
      faceConsent: false,
    });
    const response = await callRoute(accountRoute.loader, makeRequest("/api/account", { token }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: user.id,
      email: user.email,
      firstName: "Cora",
      lastName: "Creator",
      profileImageUrl: null,
      handle: null,
      bio: null,
      createdAt: user.created_at,
      pendingEmail: null,
      consent: { faceProcessing: { given: false, at: null, version: null } },
      followers: 0,
    });
    expect((await callRoute(accountRoute.loader, makeRequest("/api/account"))).status).toBe(401);
  });
});

describe("PATCH /api/account", () => {
  it("changes the fields given, lower-cases the handle, and keeps the others", async () => {
    const { user, token } = await createTestUser({ firstName: "Cora", lastName: "Creator" });
    const first = await patch(
      { firstName: " Coralie ", handle: "Cora-Pix", bio: "Selfies, styled." },
      { token },
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      firstName: "Coralie",
      lastName: "Creator",
      handle: "cora-pix",
      bio: "Selfies, styled.",
    });
    const second = await patch({ lastName: "Doe" }, { token });
    expect(second.body).toMatchObject({
      firstName: "Coralie",
      lastName: "Doe",
      handle: "cora-pix",
      bio: "Selfies, styled.",
    });
    const cleared = await patch({ handle: null, bio: "" }, { token });
    expect(cleared.body).toMatchObject({ handle: null, bio: null });
    expect((await userRow(user.id)).handle).toBeNull();
  });

  it("refuses an invalid or reserved handle, a long bio and an empty name with the field's message, changing nothing", async () => {
    const { user, token } = await createTestUser();
    await patch({ handle: "mine", bio: "Before" }, { token });
    const before = await userRow(user.id);
    const cases: [unknown, string][] = [
      [{ handle: "ab" }, "handle"],
      [{ handle: "a".repeat(31) }, "handle"],
      [{ handle: "no spaces" }, "handle"],
      [{ handle: "émile" }, "handle"],
      [{ handle: "under_score" }, "handle"],
      [{ handle: "admin" }, "handle"],
      [{ handle: "Settings" }, "handle"],
      [{ handle: 42 }, "handle"],
      [{ bio: "x".repeat(281) }, "bio"],
      [{ firstName: "  " }, "firstName"],
      [{ lastName: "x".repeat(101) }, "lastName"],
      [{ firstName: "Ok", handle: "api" }, "handle"],
    ];
    for (const [body, field] of cases) {
      const answer = await patch(body, { token });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.fieldErrors[field], JSON.stringify(body)).toBeTruthy();
    }
    expect(await userRow(user.id)).toEqual(before);
  });

  it("answers 409 for a handle another account has, and changes nothing (also the other fields sent with it)", async () => {
    const owner = await createTestUser();
    const other = await createTestUser({ firstName: "Other" });
    expect((await patch({ handle: "taken-one" }, { token: owner.token })).status).toBe(200);
    const before = await userRow(other.user.id);
    const answer = await patch(
      { firstName: "Changed", handle: "TAKEN-one" },
      { token: other.token },
    );
    expect(answer.status).toBe(409);
    expect(answer.body.message).toMatch(/taken/);
    expect(await userRow(other.user.id)).toEqual(before);
    // Keeping one's own handle is no conflict.
    expect((await patch({ handle: "taken-one", bio: "Mine" }, { token: owner.token })).status).toBe(
      200,
    );
  });

  it("of two accounts asking for the same handle at once, one gets it and the other a 409", async () => {
    for (let round = 0; round < 5; round += 1) {
      const handle = `race-${round}-${Date.now() % 100000}`;
      const people = [await createTestUser(), await createTestUser()];
      const answers = await Promise.all(people.map(({ token }) => patch({ handle }, { token })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const holders = await selectWhere("users", "id", "handle", handle);
      expect(holders).toHaveLength(1);
    }
  });

  it("refuses a cross-site cookie call and a malformed body without a 500", async () => {
    const { cookie, token } = await createTestUser();
    const cross = await callRoute(
      accountRoute.action,
      makeRequest("/api/account", {
        method: "PATCH",
        json: { firstName: "X" },
        cookie,
        origin: "cross",
      }),
    );
    expect(cross.status).toBe(403);
    const malformed = await callRoute(
      accountRoute.action,
      makeRequest("/api/account", { method: "PATCH", json: "{", token }),
    );
    expect(malformed.status).toBe(400);
  });
});

describe("POST /api/account/avatar", () => {
  it("stores a square photo without metadata at a public URL, and replaces the previous one", async () => {
    const { user, token } = await createTestUser();
    const response = await sendAvatar(
      avatarRequest(await jpegWithGpsAndRotation(), {
        token,
        filename: "gps.jpg",
        type: "image/jpeg",
      }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.id).toBe(user.id);
    expect(body.profileImageUrl).toMatch(/^\/media\/avatars\/[A-Za-z0-9_-]+\.jpg$/);
    // Public: no signature needed, as the nav and the admin portal show it.
    const served = await fetchMedia(body.profileImageUrl);
    expect(served.status).toBe(200);
    const bytes = Buffer.from(await served.arrayBuffer());
    const metadata = await sharp(bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual([
      "jpeg",
      AVATAR_SIZE,
      AVATAR_SIZE,
    ]);
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(bytes.includes(Buffer.from("Locator 9000"))).toBe(false);

    const firstKey = avatarKeyOf(body.profileImageUrl)!;
    const again = await (
      await sendAvatar(avatarRequest(fixture("portrait.png"), { token }))
    ).json();
    expect(again.profileImageUrl).not.toBe(body.profileImageUrl);
    expect(await getFileStore().exists(firstKey)).toBe(false);
    expect(await getFileStore().exists(avatarKeyOf(again.profileImageUrl)!)).toBe(true);
  });

  it("refuses as uploads do: 415 for bytes that are not an image, 413 past 10 MB, 400 without the file; nothing changes", async () => {
    const { user, token } = await createTestUser();
    const before = await userRow(user.id);
    const notImage = await sendAvatar(
      avatarRequest(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"), {
        token,
        type: "image/svg+xml",
      }),
    );
    expect(notImage.status).toBe(415);
    expect((await notImage.json()).message).toBe("Please select a valid image file (JPG or PNG).");
    const truncated = await sendAvatar(
      avatarRequest(fixture("truncated.jpg"), { token, type: "image/jpeg" }),
    );
    expect(truncated.status).toBe(415);
    const tooLarge = await sendAvatar(
      avatarRequest(new Uint8Array(10 * 1024 * 1024 + 1), { token }),
    );
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).message).toBe("Please select a file smaller than 10MB.");
    expect(
      (await sendAvatar(avatarRequest(fixture("portrait.png"), { token, field: "photo" }))).status,
    ).toBe(400);
    expect(
      (await sendAvatar(makeRequest("/api/account/avatar", { token, json: { image: "x" } })))
        .status,
    ).toBe(400);
    expect((await sendAvatar(avatarRequest(fixture("portrait.png")))).status).toBe(401);
    expect(await userRow(user.id)).toEqual(before);
  });
});

describe("email change", () => {
  const ask = (json: unknown, token: string) =>
    callRoute(emailRoute.action, makeRequest("/api/account/email", { json, token }));
  const confirm = (json: unknown, token: string) =>
    callRoute(confirmRoute.action, makeRequest("/api/account/email/confirm", { json, token }));

  it("mails a link to the new address and a notice to the old one; the email changes only when the link is used, once", async () => {
    const { user, token } = await createTestUser({ firstName: "Cora" });
    const asked = await ask({ email: "Cora.New@Example.com", password: TEST_PASSWORD }, token);
    expect(asked.status).toBe(202);
    expect((await userRow(user.id)).email).toBe(user.email);

    const [link] = await mailTo("cora.new@example.com");
    expect(link.subject).toMatch(/Confirm your new/);
    const [notice] = await mailTo(user.email);
    expect(notice.text).toContain("cora.new@example.com");
    expect(notice.text).not.toContain("token=");
    const linkToken = tokenIn(link.text);
    // Only a hash of the token is stored.
    const stored = await rowsWhere("email_changes", "user_id", user.id);
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).toBe(sha256(linkToken));
    expect(JSON.stringify(stored)).not.toContain(linkToken);

    const pending = await (
      await callRoute(accountRoute.loader, makeRequest("/api/account", { token }))
    ).json();
    expect(pending).toMatchObject({ email: user.email, pendingEmail: "cora.new@example.com" });

    const confirmed = await confirm({ token: linkToken }, token);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({
      email: "cora.new@example.com",
      pendingEmail: null,
    });
    // The token the call was made with still works: sessions and tokens survive an email change.
    expect((await userForApiToken(db(), token))?.email).toBe("cora.new@example.com");

    const reused = await confirm({ token: linkToken }, token);
    expect(reused.status).toBe(400);
  });

  it("refuses a wrong password, the own address and a malformed one with 400, changing and sending nothing", async () => {
    const { user, token } = await createTestUser();
    const jobsBefore = await db().selectFrom("jobs").select("id").execute();
    const wrong = await ask({ email: "fresh@example.com", password: "not-my-password" }, token);
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).fieldErrors.password).toBeTruthy();
    expect((await ask({ email: user.email, password: TEST_PASSWORD }, token)).status).toBe(400);
    expect((await ask({ email: "not an email", password: TEST_PASSWORD }, token)).status).toBe(400);
    expect(await db().selectFrom("jobs").select("id").execute()).toEqual(jobsBefore);
    expect(await selectWhere("email_changes", "id", "user_id", user.id)).toEqual([]);
    expect(await userRow(user.id)).toEqual(user);
  });

  it("answers an address another account has exactly as a free one; that address gets a notice without a link, and nothing changes", async () => {
    const { user, token } = await createTestUser({ firstName: "Tess" });
    const other = await createTestUser({ firstName: "Holder" });
    const free = await ask({ email: "tess.free@example.com", password: TEST_PASSWORD }, token);
    const taken = await ask(
      { email: other.user.email.toUpperCase(), password: TEST_PASSWORD },
      token,
    );
    expect(taken.status).toBe(free.status);
    expect(free.status).toBe(202);
    expect(await taken.json()).toEqual(await free.json());

    // The taken address is told someone tried; it carries no link and no name the asker chose.
    const [notice] = await mailTo(other.user.email);
    expect(notice.subject).toMatch(/tried to use your email/i);
    expect(notice.text).not.toContain("token=");
    expect(notice.text).not.toContain("Tess");
    // The asker's own address gets the usual notice, and the settings show the change waiting as for any address.
    const notices = await mailTo(user.email);
    expect(notices.at(-1)!.text).toContain(other.user.email);
    const pending = await (
      await callRoute(accountRoute.loader, makeRequest("/api/account", { token }))
    ).json();
    expect(pending).toMatchObject({ email: user.email, pendingEmail: other.user.email });
    expect((await userRow(user.id)).email).toBe(user.email);
    expect((await userRow(other.user.id)).email).toBe(other.user.email);
  });

  it("refuses an expired link, another user's link, an unknown one and one whose address was taken meanwhile", async () => {
    const { user } = await createTestUser({ firstName: "Exp" });
    const stranger = await createTestUser();
    const now = new Date("2026-11-26T10:00:00.000Z");
    const ctx = (at: Date) => plainContext("http://localhost:3000", { ties: testTies, now: at });
    await invoke(
      requestEmailChange,
      user,
      { email: "later@example.com", password: TEST_PASSWORD },
      ctx(now),
    );
    const linkToken = tokenIn((await mailTo("later@example.com")).at(-1)!.text);

    const expired = await httpFailure(
      invoke(
        confirmEmailChange,
        user,
        { token: linkToken },
        ctx(new Date(now.getTime() + 24 * 3600_000 + 1)),
      ),
    );
    expect([expired.status, expired.message]).toEqual([400, expect.stringMatching(/expired/)]);
    const notTheirs = await httpFailure(
      invoke(confirmEmailChange, stranger.user, { token: linkToken }, ctx(now)),
    );
    expect(notTheirs.status).toBe(400);
    const unknown = await httpFailure(
      invoke(confirmEmailChange, user, { token: "x".repeat(43) }, ctx(now)),
    );
    expect(unknown.status).toBe(400);

    await updateWhere("users", { email: "later@example.com" }, "id", stranger.user.id);
    const taken = await httpFailure(
      invoke(confirmEmailChange, user, { token: linkToken }, ctx(now)),
    );
    expect(taken.status).toBe(409);
    expect((await userRow(user.id)).email).toBe(user.email);
    expect((await rowWhere("email_changes", "used_at", "user_id", user.id)).used_at).toBeNull();
  });

  it("of two accounts confirming the same new address at once, one gets it and the other a 409, never a 500", async () => {
    const ctx = plainContext("http://localhost:3000", { ties: testTies });
    for (let round = 0; round < 5; round += 1) {
      const address = `contested-${round}-${Date.now()}@example.com`;
      const people = [await createTestUser(), await createTestUser()];
      const links: string[] = [];
      for (const { user } of people) {
        const before = new Set((await mailTo(address)).map((mail) => mail.text));
        await invoke(requestEmailChange, user, { email: address, password: TEST_PASSWORD }, ctx);
        // The mail this request queued (the two may share a creation time, so not "the last").
        const queued = (await mailTo(address)).find((mail) => !before.has(mail.text))!;
        links.push(tokenIn(queued.text));
      }
      const outcomes = await Promise.allSettled(
        people.map(({ user }, index) =>
          invoke(confirmEmailChange, user, { token: links[index] }, ctx),
        ),
      );
      const refused = outcomes.filter((outcome) => outcome.status === "rejected");
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      expect(refused).toHaveLength(1);
      const reason = (refused[0] as PromiseRejectedResult).reason as HttpError;
      expect([reason.status, reason.message]).toEqual([409, EMAIL_IN_USE]);
      const holders = await selectWhere("users", "id", "email", address);
      expect(holders).toHaveLength(1);
    }
  });

  it("a newer request replaces the link of an older one", async () => {
    const { user, token } = await createTestUser();
    await ask({ email: "one@example.com", password: TEST_PASSWORD }, token);
    await ask({ email: "two@example.com", password: TEST_PASSWORD }, token);
    const oldToken = tokenIn((await mailTo("one@example.com"))[0].text);
    expect((await confirm({ token: oldToken }, token)).status).toBe(400);
    const newToken = tokenIn((await mailTo("two@example.com"))[0].text);
    expect((await confirm({ token: newToken }, token)).status).toBe(200);
    expect((await userRow(user.id)).email).toBe("two@example.com");
  });
});
