import crypto from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import {
  createAccount,
  expect,
  expectAccessible,
  submitSignIn,
  test,
  type Credentials,
} from "./fixtures";

/**
 * The Security tab of /settings, with JavaScript on and off: a creator of the
 * spec's own (made by the admin through the API, so no other spec's sessions
 * are touched) signs in from two browsers, revokes the second from the first
 * (the second goes to sign-in at its next page), then changes the password
 * (this browser stays signed in; the new password signs in, the old one does not).
 */

async function newCreator(request: APIRequestContext): Promise<Credentials> {
  const creator = {
    email: `security-${crypto.randomBytes(4).toString("hex")}@e2e.test`,
    password: "first-password-42",
  };
  await createAccount(request, { ...creator, firstName: "Sam", lastName: "Secure" });
  return creator;
}

async function signInAs(page: Page, creator: Credentials, password = creator.password) {
  await submitSignIn(page, { email: creator.email, password }, "/settings/security");
}

test.describe("settings: security", () => {
  test("revoke a second browser's session from the first, then change the password", async ({
    page,
    browser,
    baseURL,
    request,
    javaScriptOn,
  }) => {
    const creator = await newCreator(request);
    await signInAs(page, creator);
    await expect(page).toHaveURL(/\/settings\/security$/);

    const secondContext = await browser.newContext({ baseURL, javaScriptEnabled: javaScriptOn });
    try {
      const second = await secondContext.newPage();
      await signInAs(second, creator);
      await expect(second).toHaveURL(/\/settings\/security$/);

      // Both browsers are listed; this one is marked.
      await page.reload();
      const rows = page.getByTestId("session-row");
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toContainText("This browser");
      // The project's browser says it is Chrome on Windows (Playwright's "Desktop Chrome").
      await expect(rows.first()).toContainText("Chrome on Windows");
      await expect(rows.nth(1)).toContainText(/Chrome on \w+/);
      await expectAccessible(page, javaScriptOn);

      // Revoke the other one, through its confirmation.
      const other = rows.filter({ hasNot: page.getByTestId("current-session") });
      await other.getByText("Revoke", { exact: true }).click();
      const dialog = page.getByTestId("revoke-confirmation");
      await expect(dialog).toContainText("signed out at its next request");
      await dialog.getByRole("button", { name: "Revoke" }).click();
      await expect(page.getByTestId("toast")).toContainText("Revoked");
      await expect(page.getByTestId("session-row")).toHaveCount(1);
      await expect(page.getByTestId("revoke-confirmation")).toHaveCount(0);

      // The second browser's next page is the sign-in.
      await second.goto("/settings/security");
      await expect(second).toHaveURL(/\/auth(\?|$)/);
    } finally {
      await secondContext.close();
    }

    // Change the password: a wrong current one is refused on the field, the right one works.
    const form = page.getByTestId("password-form");
    const newPassword = `changed-${javaScriptOn ? "js" : "nojs"}-${Date.now()}`;
    await form.getByLabel("Current password").fill("not-my-password");
    await form.getByLabel("New password").fill(newPassword);
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByTestId("password-form")).toContainText(
      "The current password is not correct",
    );
    await page.getByTestId("password-form").getByLabel("Current password").fill(creator.password);
    await page.getByTestId("password-form").getByLabel("New password").fill(newPassword);
    await page
      .getByTestId("password-form")
      .getByRole("button", { name: "Change password" })
      .click();
    await expect(page.getByTestId("toast")).toContainText("Password changed");
    await expect(page).toHaveURL(/\/settings\/security$/);
    await expect(page.getByTestId("session-row")).toHaveCount(1);

    // A fresh browser: the old password is refused, the new one signs in.
    const thirdContext = await browser.newContext({ baseURL, javaScriptEnabled: javaScriptOn });
    try {
      const third = await thirdContext.newPage();
      await signInAs(third, creator);
      await expect(third).toHaveURL(/\/auth/);
      // The toast with JavaScript, an alert in the form without.
      await expect(
        javaScriptOn ? third.getByTestId("toast") : third.locator("form#login"),
      ).toContainText("Invalid email or password");
      await signInAs(third, creator, newPassword);
      await expect(third).toHaveURL(/\/settings\/security$/);
    } finally {
      await thirdContext.close();
    }
  });
});
