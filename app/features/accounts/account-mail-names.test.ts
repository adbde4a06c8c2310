import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { TYPED_NAME_MAX_CHARS } from "~/features/mail/message-layout";
import { EMAIL_CHANGES_PER_ACCOUNT } from "~/features/accounts/profile/email-change-request.server";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { queuedMailTo } from "#tests/setup/mail-queue";
import { apiRoute } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";
import { selectWhere } from "#tests/setup/rows-where";

/**
 * Registration and email-change mail goes to any address someone types, and
 * carries a name that someone chose: the name is repeated only as one short
 * line (the receipts' typed-text rule), and one account can ask for only so
 * many email changes.
 */

const registerApi = apiRoute("/api/register");
const emailApi = apiRoute("/api/account/email");

// 100 characters: a line break that starts a fake paragraph, a right-to-left override.
const HOSTILE_NAME = `Eve\r\n\r\nYour account is locked: https://evil.example/unlock\u202Ekcilc\u2066${"x".repeat(35)}`;

const registration = getConfig().REGISTRATION;
beforeEach(() => {
  (getConfig() as { REGISTRATION: string }).REGISTRATION = "open";
});
afterEach(() => {
  (getConfig() as { REGISTRATION: string }).REGISTRATION = registration;
});

/** The line of the plain-text part that greets, and every line. */
function greetingOf(text: string) {
  const lines = text.split("\n");
  return { greeting: lines.find((line) => line.startsWith("Hi ")) ?? "", lines };
}

function expectTypedName(mail: { text: string; html: string }) {
  const { greeting, lines } = greetingOf(mail.text);
  // One line, no control or direction characters, at most the typed-name length.
  expect(greeting).toMatch(/^Hi Eve /);
  expect(/[\r\u202a-\u202e\u2066-\u2069]/u.test(mail.text)).toBe(false);
  expect([...greeting.slice("Hi ".length, -1)].length).toBeLessThanOrEqual(TYPED_NAME_MAX_CHARS);
  expect(lines).not.toContain("Your account is locked: https://evil.example/unlock");
  expect(mail.text).not.toContain("https://evil.example/unlock");
  expect(mail.html).not.toContain("https://evil.example/unlock");
}

describe("names in mail to typed addresses", () => {
  it("registration: the typed first name is one short line in the link's mail", async () => {
    expect(HOSTILE_NAME.length).toBe(100);
    const response = await callRoute(
      registerApi.action,
      makeRequest("/api/register", {
        json: {
          email: "victim-register@example.com",
          password: "a-fresh-passphrase",
          firstName: HOSTILE_NAME,
          lastName: "Doe",
        },
      }),
    );
    expect(response.status).toBe(202);
    const [mail] = await queuedMailTo("victim-register@example.com");
    expectTypedName(mail);
  });

  it("email change: the account's first name is one short line in the mail to the new address", async () => {
    const { token } = await createTestUser({ firstName: HOSTILE_NAME });
    const response = await callRoute(
      emailApi.action,
      makeRequest("/api/account/email", {
        json: { email: "victim-change@example.com", password: TEST_PASSWORD },
        token,
      }),
    );
    expect(response.status).toBe(202);
    const [mail] = await queuedMailTo("victim-change@example.com");
    expectTypedName(mail);
  });
});

describe("email change requests per account", () => {
  it(`takes ${EMAIL_CHANGES_PER_ACCOUNT} an hour from one account, then 429 with Retry-After, mailing nothing more`, async () => {
    const { user, token } = await createTestUser();
    const ask = (email: string, clientIp: string) =>
      callRoute(
        emailApi.action,
        makeRequest("/api/account/email", { json: { email, password: TEST_PASSWORD }, token }),
        {},
        // Other addresses each time: the limit is the account's, wherever it asks from.
        { ties: testTies, clientIp, nonce: "test" },
      );
    for (let i = 0; i < EMAIL_CHANGES_PER_ACCOUNT; i++)
      expect((await ask(`flood-${i}@example.com`, `192.0.2.${100 + i}`)).status).toBe(202);
    const noticesBefore = await queuedMailTo(user.email);
    const refused = await ask("flood-last@example.com", "192.0.2.200");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await refused.json()).message).toMatch(/^Too many email change requests/);
    expect(await queuedMailTo("flood-last@example.com")).toEqual([]);
    expect(await queuedMailTo(user.email)).toHaveLength(noticesBefore.length);
    const waiting = await selectWhere("email_changes", "new_email", "user_id", user.id);
    expect(waiting).toEqual([{ new_email: `flood-${EMAIL_CHANGES_PER_ACCOUNT - 1}@example.com` }]);
  });
});
