import crypto from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { createAccount, expect, expectAccessible, submitSignIn, test } from "./fixtures";

/**
 * Settings → Delete account, with JavaScript on and off: a throwaway creator
 * made by the admin signs in, is refused with a wrong password, then erases
 * their account; they land signed out and cannot sign in again.
 */

async function throwawayCreator(request: APIRequestContext) {
  const account = {
    email: `erase-${crypto.randomBytes(4).toString("hex")}@e2e.test`,
    password: "throwaway-pass-42",
    firstName: "Thea",
    lastName: "Throwaway",
  };
  await createAccount(request, account);
  return account;
}

test("a creator deletes their own account from Settings", async ({
  page,
  request,
  javaScriptOn,
}) => {
  const account = await throwawayCreator(request);
  await submitSignIn(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/settings/delete");
  const panel = page.getByTestId("delete-account");
  await expect(panel).toContainText(account.email);
  await expect(panel).toContainText("Buyers keep what they paid for");
  await expectAccessible(page, javaScriptOn);

  await page.getByRole("link", { name: "Delete my account…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog).toBeVisible();

  // A wrong password is refused and the account stays.
  await dialog.getByLabel("Password").fill("not-the-password");
  await dialog.getByRole("checkbox", { name: /I understand/ }).check();
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("The password is not correct").first()).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/delete/);

  await page
    .getByRole("dialog", { name: "Delete your account?" })
    .getByLabel("Password")
    .fill(account.password);
  const box = page
    .getByRole("dialog", { name: "Delete your account?" })
    .getByRole("checkbox", { name: /I understand/ });
  if (!(await box.isChecked())) await box.check();
  await page
    .getByRole("dialog", { name: "Delete your account?" })
    .getByRole("button", { name: "Delete my account" })
    .click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("toast")).toContainText("Account deleted");
  await expect(page.getByRole("link", { name: "Sign In" }).first()).toBeVisible();

  // Signed out for good: the settings send to sign-in, and the old password no longer works.
  await page.goto("/settings/delete");
  await expect(page).toHaveURL(/\/auth/);
  await submitSignIn(page, account);
  await expect(page).toHaveURL(/\/auth/);
  await expect(page.getByText("Invalid email or password").first()).toBeVisible();
});
