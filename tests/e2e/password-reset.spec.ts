import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { outboxFiles, readEml, addressesOf } from "../setup/mail";
import { ACCOUNTS, expect, expectAccessible, test } from "./fixtures";

/**
 * "Forgot password?" end to end, with JavaScript on and off: the demo creator
 * asks for a link on /forgot-password, the link is read from the newest .eml
 * in the e2e server's outbox (no SMTP_URL there), the new password is set on
 * /reset-password and signs in. The demo password is put back afterwards
 * through the API (the same flow), so the other specs keep signing in with it.
 * Each run asks for two links per project (four for the demo email in all),
 * under the limit of five per email an hour.
 */

const port = Number(process.env.E2E_PORT ?? 3100);
const OUTBOX = path.resolve("tests/.tmp", `e2e-${port}`, "outbox");
const demo = ACCOUNTS.creator;

/** The reset link of the first message to `email` written after `known` (the files seen before asking). */
async function nextResetLink(email: string, known: Set<string>): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        for (const file of outboxFiles(OUTBOX)
          .filter((name) => !known.has(name))
          .reverse()) {
          const mail = await readEml(file);
          if (!addressesOf(mail.to).includes(email)) continue;
          expect(mail.subject).toBe("Reset your Selfie Studio password");
          expect(mail.text).toContain("valid for 60 minutes");
          link = /https?:\/\/\S+\/reset-password\?token=\S+/.exec(mail.text ?? "")?.[0];
          return link;
        }
        return undefined;
      },
      { timeout: 15_000, message: `a password reset mail to ${email} in ${OUTBOX}` },
    )
    .toBeTruthy();
  return link!;
}

/** Sets a password through POST /api/forgot-password and /api/reset-password. */
async function setPasswordByApi(request: APIRequestContext, email: string, password: string) {
  const known = new Set(outboxFiles(OUTBOX));
  const asked = await request.post("/api/forgot-password", { data: { email } });
  expect(asked.status()).toBe(202);
  const token = new URL(await nextResetLink(email, known)).searchParams.get("token");
  const reset = await request.post("/api/reset-password", { data: { token, password } });
  expect(reset.status()).toBe(204);
}

test.describe("forgot password", () => {
  test("the demo creator resets the password from a mailed link and signs in with it", async ({
    page,
    request,
    javaScriptOn,
  }) => {
    const newPassword = `reset-${javaScriptOn ? "js" : "nojs"}-${Date.now()}`;
    try {
      await page.goto("/auth");
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await expect(page).toHaveURL(/\/forgot-password$/);
      await expect(page.getByRole("heading", { name: "Forgot password?" })).toBeVisible();
      await expectAccessible(page, javaScriptOn);

      const known = new Set(outboxFiles(OUTBOX));
      const form = page.locator("form#forgot-password");
      await form.getByLabel("Email").fill(demo.email);
      await form.getByRole("button", { name: "Send reset link" }).click();
      await expect(page.getByTestId("reset-requested")).toContainText(
        "a link to reset its password is on its way",
      );
      const link = await nextResetLink(demo.email, known);

      await page.goto(link);
      await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
      await expectAccessible(page, javaScriptOn);
      const resetForm = page.locator("form#reset-password");
      await resetForm.getByLabel("New password").fill(newPassword);
      await resetForm.getByRole("button", { name: "Set new password" }).click();
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByTestId("toast")).toContainText(
        "Password changed. Sign in with your new password.",
      );

      const login = page.locator("form#login");
      await login.getByLabel("Email").fill(demo.email);
      await login.getByLabel("Password").fill(newPassword);
      await login.getByRole("button", { name: "Login" }).click();
      await expect(page).toHaveURL(/\/dashboard$/);

      // The link worked once.
      await page.goto(link);
      await expect(page.getByRole("alert")).toContainText("has already been used");
      await expect(page.getByRole("link", { name: "Ask for a new link" })).toBeVisible();
    } finally {
      await setPasswordByApi(request, demo.email, demo.password);
    }
  });

  test("an unknown email gets the same confirmation and no mail", async ({ page }) => {
    const email = `nobody-${Date.now()}@example.com`;
    const known = new Set(outboxFiles(OUTBOX));
    await page.goto("/forgot-password");
    const form = page.locator("form#forgot-password");
    await form.getByLabel("Email").fill(email);
    await form.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByTestId("reset-requested")).toContainText(
      "a link to reset its password is on its way",
    );
    // Give the worker the time it takes a real message, then look.
    await page.waitForTimeout(1500);
    const fresh = outboxFiles(OUTBOX).filter((file) => !known.has(file));
    for (const file of fresh) expect(addressesOf((await readEml(file)).to)).not.toContain(email);
  });

  test("a garbled link shows the error and a way to ask again", async ({ page }) => {
    await page.goto("/reset-password?token=garbled");
    await expect(page.getByRole("alert")).toContainText("Ask for a new one.");
    await page.getByRole("link", { name: "Ask for a new link" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
  });
});
