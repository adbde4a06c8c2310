import path from "node:path";
import { addressesOf, outboxFiles, readEml } from "../setup/mail";
import { createAccount, expect, expectAccessible, runTag, test, tokenFor } from "./fixtures";

/**
 * Following a creator, end to end, with JavaScript on and off: a visitor with
 * no account types an address in the Follow form of a storefront, confirms by
 * the link mailed to them (read from the e2e server's outbox, where the mail
 * carries List-Unsubscribe and List-Unsubscribe-Post), and the creator's
 * account counts one follower; a POST to the List-Unsubscribe address, with no
 * body, ends the follow at once and the count is back to none.
 */

/** A header as the message carries it (mailparser folds the List-* headers into a structure of its own). */
function rawHeader(mail: { headerLines: readonly { key: string; line: string }[] }, key: string) {
  const line = mail.headerLines.find((header) => header.key === key)?.line;
  return line?.replace(/^[^:]+:\s*/, "").replace(/\r?\n\s+/g, "");
}

const port = Number(process.env.E2E_PORT ?? 3100);
const OUTBOX = path.resolve("tests/.tmp", `e2e-${port}`, "outbox");

test("a visitor follows a storefront, confirms by mail, and one click on the unsubscribe ends it", async ({
  page,
  request,
  javaScriptOn,
}) => {
  test.setTimeout(120_000);
  const tag = runTag(javaScriptOn);
  const creator = {
    email: `followed-${tag}@e2e.test`,
    password: `followed-${tag}-password`,
    firstName: "Fay",
    lastName: "Followed",
  };
  await createAccount(request, creator);
  const token = await tokenFor(request, creator);
  const auth = { Authorization: `Bearer ${token}` };
  const handle = `fay-${tag}`.slice(0, 30);
  const named = await request.patch("/api/account", { data: { handle }, headers: auth });
  expect(named.status()).toBe(200);
  const followers = async () =>
    ((await (await request.get("/api/account", { headers: auth })).json()) as { followers: number })
      .followers;
  expect(await followers()).toBe(0);

  // The visitor follows from the storefront.
  await page.goto(`/creators/${handle}`);
  const form = page.getByTestId("follow-form");
  await expect(form).toBeVisible();
  await expectAccessible(page, javaScriptOn);
  const follower = `follower-${tag}@example.com`;
  await form.getByRole("textbox", { name: /Follow Fay/ }).fill(follower);
  const known = new Set(outboxFiles(OUTBOX));
  await form.getByRole("button", { name: "Follow" }).click();
  await expect(page.getByTestId("follow-sent")).toContainText("we sent a link to your email");

  // The confirmation mail carries the one-click unsubscribe headers.
  let confirmLink: string | undefined;
  let unsubscribe: string | undefined;
  await expect
    .poll(
      async () => {
        for (const file of outboxFiles(OUTBOX).filter((name) => !known.has(name))) {
          const mail = await readEml(file);
          if (!addressesOf(mail.to).includes(follower)) continue;
          expect(rawHeader(mail, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
          unsubscribe = /<([^>]+)>/.exec(rawHeader(mail, "list-unsubscribe") ?? "")?.[1];
          confirmLink = /https?:\/\/\S+\/follows\/confirm\?token=[\w-]+/.exec(mail.text ?? "")?.[0];
          return confirmLink;
        }
        return undefined;
      },
      { timeout: 15_000, message: `a follow confirmation mail to ${follower}` },
    )
    .toBeTruthy();
  expect(unsubscribe).toMatch(/\/follows\/unsubscribe\?token=/);

  // Opening the link changes nothing; its button confirms.
  const link = new URL(confirmLink!);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole("heading", { name: "Confirm your follow" })).toBeVisible();
  expect(await followers()).toBe(0);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("follow-confirmed")).toContainText("You follow this creator now");
  expect(await followers()).toBe(1);

  // The mail provider's one-click POST (no body) ends it at once, answered without a redirect.
  const off = new URL(unsubscribe!);
  const oneClick = await request.post(`${off.pathname}${off.search}`, { maxRedirects: 0 });
  expect(oneClick.status()).toBe(200);
  expect(await followers()).toBe(0);
  // The same link's page and button answer the follow ended (again: nothing is left to end).
  await page.goto(`${off.pathname}${off.search}`);
  await page.getByRole("button", { name: "Unfollow" }).click();
  await expect(page.getByTestId("follow-ended")).toBeVisible();
});
