import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { plainContext } from "~/infra/call-context.server";
import { invoke } from "~/infra/procedure.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import { selectMailTransport } from "~/infra/mail/select-mail-transport.server";
import { MAIL_JOB, mailJobHandler } from "~/features/mail/mail-job.server";
import {
  RESET_REQUESTED,
  requestPasswordReset,
  resetLinkStatus,
  resetPassword,
} from "~/features/accounts/passwords/procedures.server";
import { signIn } from "~/features/accounts/sessions/procedures.server";
import {
  RESET_LINK_EXPIRED,
  RESET_LINK_INVALID,
  RESETS_PER_ADDRESS,
  RESETS_PER_EMAIL,
  signResetToken,
} from "~/features/accounts/passwords/password-reset.server";
import {
  createWebSession,
  userForApiToken,
  userForWebSession,
} from "~/features/accounts/sessions/sessions.server";
import { renderResetPasswordMail } from "~/features/accounts/passwords/reset-password-mail.server";
import { createTestUser, storedPasswordHash } from "#tests/setup/accounts";
import { addressesOf, outboxFiles, readEml } from "#tests/setup/mail";
import { httpFailure } from "#tests/setup/errors";
import { testTies } from "#tests/setup/ties";
import { rowsWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const ORIGIN = "https://selfie.example";
let address = 0;
/** A context from a client address of its own, so the throttles of one test do not reach the next; the server's PUBLIC_URL is ORIGIN (mail links come from it). */
const ctxAt = (now = new Date(), clientIp = `198.51.100.${++address}`) =>
  plainContext(ORIGIN, {
    ties: testTies,
    now,
    clientIp,
    config: { ...getConfig(), PUBLIC_URL: ORIGIN },
  });

function mailWorker() {
  return new JobWorker({
    db: getDb(),
    handlers: {
      [MAIL_JOB]: mailJobHandler({
        transport: () => selectMailTransport(getConfig(), { log: () => {} }),
        from: () => "Selfie Studio <studio@example.com>",
        replyTo: () => "help@example.com",
      }),
    },
    concurrency: 1,
    backoff: { baseMs: 0, maxMs: 0 },
    log: () => {},
  });
}

/** Sends what is queued and answers the .eml files written meanwhile. */
async function sendQueued(): Promise<string[]> {
  const before = new Set(outboxFiles(getConfig().outboxDir));
  await mailWorker().drain();
  return outboxFiles(getConfig().outboxDir).filter((file) => !before.has(file));
}

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;
const linkIn = (text: string) =>
  /https:\/\/selfie\.example\/reset-password\?token=\S+/.exec(text)?.[0];

const queuedMail = () => rowsWhere("jobs", "kind", MAIL_JOB);

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

describe("requestPasswordReset", () => {
  it("mails a known user one link to /reset-password, valid for 60 minutes and single-use", async () => {
    const { user } = await createTestUser({
      email: "reset-known@example.com",
      firstName: "Ana <b>",
    });
    const answer = await invoke(
      requestPasswordReset,
      null,
      { email: " Reset-Known@Example.com " },
      ctxAt(),
    );
    expect(answer).toEqual({ message: RESET_REQUESTED });

    const files = await sendQueued();
    expect(files).toHaveLength(1);
    const mail = await readEml(files[0]);
    expect(addressesOf(mail.to)).toEqual([user.email]);
    expect(mail.subject).toBe("Reset your Selfie Studio password");
    const link = linkIn(mail.text ?? "");
    expect(link).toBeDefined();
    expect(mail.text).toContain("valid for 60 minutes");
    expect(mail.text).toContain("works once");
    expect(mail.text).toContain("you can ignore this email");
    expect(mail.html).toContain(`href="${link!.replace(/&/g, "&amp;")}"`);
    // The name is escaped in the HTML part.
    expect(mail.html).toContain("Hi <bdi>Ana &lt;b&gt;</bdi>,");
    expect(mail.html).not.toContain("<b>,");
  });

  it("answers the same for an unknown and a banned email, and mails nothing", async () => {
    const { user } = await createTestUser({ email: "reset-banned@example.com" });
    await updateWhere("users", { banned: 1 }, "id", user.id);
    for (const email of ["nobody-here@example.com", "reset-banned@example.com"]) {
      expect(await invoke(requestPasswordReset, null, { email }, ctxAt())).toEqual({
        message: RESET_REQUESTED,
      });
    }
    expect(await queuedMail()).toEqual([]);
    expect(await sendQueued()).toEqual([]);
  });

  it("refuses a malformed email with 400 and queues nothing", async () => {
    const error = await httpFailure(
      invoke(requestPasswordReset, null, { email: "not-an-email" }, ctxAt()),
    );
    expect(error.status).toBe(400);
    expect(error.fieldErrors).toEqual({ email: ["Invalid email address"] });
    expect(await queuedMail()).toEqual([]);
  });

  it(`throttles ${RESETS_PER_EMAIL} requests per email an hour, known or not, with Retry-After`, async () => {
    await createTestUser({ email: "reset-throttle@example.com" });
    const start = new Date("2026-11-01T10:00:00.000Z");
    for (const email of ["reset-throttle@example.com", "reset-throttle-unknown@example.com"]) {
      for (let i = 0; i < RESETS_PER_EMAIL; i += 1) {
        // A different address each time: the email's own limit is what stops it.
        await invoke(
          requestPasswordReset,
          null,
          { email },
          ctxAt(new Date(start.getTime() + i * 1000)),
        );
      }
      const refused = await httpFailure(
        invoke(requestPasswordReset, null, { email }, ctxAt(new Date(start.getTime() + 10_000))),
      );
      expect(refused.status).toBe(429);
      expect(refused.message).toMatch(
        /^Too many password reset requests\. Try again in 60 minutes\.$/,
      );
      expect(Number(new Headers(refused.headers).get("Retry-After"))).toBeGreaterThan(3500);
      // An hour after the first, one more is allowed.
      await invoke(
        requestPasswordReset,
        null,
        { email },
        ctxAt(new Date(start.getTime() + 60 * 60 * 1000 + 1)),
      );
    }
    // Five mails and the one an hour later for the account; none for the unknown email.
    expect(await queuedMail()).toHaveLength(RESETS_PER_EMAIL + 1);
  });

  it(`throttles ${RESETS_PER_ADDRESS} requests per client address an hour`, async () => {
    const now = new Date("2026-11-02T10:00:00.000Z");
    const ip = "192.0.2.99";
    for (let i = 0; i < RESETS_PER_ADDRESS; i += 1) {
      await invoke(
        requestPasswordReset,
        null,
        { email: `spread-${i}@example.com` },
        ctxAt(now, ip),
      );
    }
    const refused = await httpFailure(
      invoke(requestPasswordReset, null, { email: "spread-last@example.com" }, ctxAt(now, ip)),
    );
    expect(refused.status).toBe(429);
    expect(new Headers(refused.headers).get("Retry-After")).toBe("3600");
    // Another address is not held up.
    await invoke(requestPasswordReset, null, { email: "spread-last@example.com" }, ctxAt(now));
  });
});

describe("resetPassword", () => {
  it("the mailed link sets the password, ends every session and token, and works only once", async () => {
    const { user, token: apiToken } = await createTestUser({ email: "reset-flow@example.com" });
    const session = await createWebSession(getDb(), user.id, 30);
    await invoke(requestPasswordReset, null, { email: user.email }, ctxAt());
    const [file] = await sendQueued();
    const link = linkIn((await readEml(file)).text ?? "")!;

    expect(await invoke(resetLinkStatus, null, { token: tokenOf(link) }, ctxAt())).toEqual({
      valid: true,
      message: null,
    });
    expect(
      await invoke(
        resetPassword,
        null,
        { token: tokenOf(link), password: "brand-new-pass" },
        ctxAt(),
      ),
    ).toBeNull();

    expect(await userForApiToken(getDb(), apiToken)).toBeUndefined();
    expect(await userForWebSession(getDb(), session.secret, new Date(), 7)).toBeUndefined();
    const signedIn = await invoke(
      signIn,
      null,
      { email: user.email, password: "brand-new-pass" },
      ctxAt(),
    );
    expect(signedIn.id).toBe(user.id);
    const old = await httpFailure(
      invoke(signIn, null, { email: user.email, password: "correct-horse" }, ctxAt()),
    );
    expect(old.status).toBe(401);

    const again = await httpFailure(
      invoke(resetPassword, null, { token: tokenOf(link), password: "another-pass" }, ctxAt()),
    );
    expect(again.status).toBe(400);
    expect(again.message).toBe(RESET_LINK_INVALID);
    expect(await invoke(resetLinkStatus, null, { token: tokenOf(link) }, ctxAt())).toEqual({
      valid: false,
      message: RESET_LINK_INVALID,
    });
    // The password is still the one the link set.
    expect(
      (await invoke(signIn, null, { email: user.email, password: "brand-new-pass" }, ctxAt())).id,
    ).toBe(user.id);
  });

  it("a link expires 60 minutes after it was made", async () => {
    const { user } = await createTestUser();
    const made = new Date("2026-11-03T10:00:00.000Z");
    const token = signResetToken(getConfig().appSecret, user, made);
    const late = await httpFailure(
      invoke(
        resetPassword,
        null,
        { token, password: "too-late-pass" },
        ctxAt(new Date(made.getTime() + 60 * 60 * 1000)),
      ),
    );
    expect(late.status).toBe(400);
    expect(late.message).toBe(RESET_LINK_EXPIRED);
    await invoke(
      resetPassword,
      null,
      { token, password: "just-in-time" },
      ctxAt(new Date(made.getTime() + 59 * 60 * 1000)),
    );
  });

  it("using one link ends the others, and of two uses at once exactly one succeeds", async () => {
    const { user } = await createTestUser();
    const first = signResetToken(getConfig().appSecret, user, new Date());
    const second = signResetToken(getConfig().appSecret, user, new Date(Date.now() + 1000));
    const results = await Promise.allSettled([
      invoke(resetPassword, null, { token: second, password: "racer-one" }, ctxAt()),
      invoke(resetPassword, null, { token: second, password: "racer-two" }, ctxAt()),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    const stale = await httpFailure(
      invoke(resetPassword, null, { token: first, password: "late-comer" }, ctxAt()),
    );
    expect(stale.message).toBe(RESET_LINK_INVALID);
  });

  it("refuses a forged, malformed or banned user's token, and a short password, changing nothing", async () => {
    const { user } = await createTestUser();
    const valid = signResetToken(getConfig().appSecret, user, new Date());
    const [id, expires, signature] = valid.split(".");
    const forged = `${id}.${expires}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    const otherSecret = signResetToken("x".repeat(40), user, new Date());
    for (const token of [
      forged,
      otherSecret,
      "nonsense",
      `${id}.zzzzzzzzzzzz.${signature}`,
      "a.b.c",
    ]) {
      const error = await httpFailure(
        invoke(resetPassword, null, { token, password: "whatever-pass" }, ctxAt()),
      );
      expect(error.status, token).toBe(400);
    }
    const short = await httpFailure(
      invoke(resetPassword, null, { token: valid, password: "12345" }, ctxAt()),
    );
    expect(short.status).toBe(400);
    expect(short.fieldErrors).toEqual({ password: ["Password must be at least 8 characters"] });

    await updateWhere("users", { banned: 1 }, "id", user.id);
    const banned = await httpFailure(
      invoke(resetPassword, null, { token: valid, password: "whatever-pass" }, ctxAt()),
    );
    expect(banned.message).toBe(RESET_LINK_INVALID);
    expect(await storedPasswordHash(user.id)).toBe(user.password_hash);
  });
});

describe("the reset mail", () => {
  it("has a text and an HTML part with the absolute link, escaped", () => {
    const mail = renderResetPasswordMail({
      firstName: "",
      link: `${ORIGIN}/reset-password?token=a"b&c`,
    });
    expect(mail.text).toContain(`${ORIGIN}/reset-password?token=a"b&c`);
    expect(mail.text.startsWith("Hi,")).toBe(true);
    expect(mail.html).toContain(`href="${ORIGIN}/reset-password?token=a&quot;b&amp;c"`);
  });
});
