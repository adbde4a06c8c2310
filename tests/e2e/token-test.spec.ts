import { expect, test } from "./fixtures";

test("token test: token login, the current user, logout", async ({ page, javaScriptOn }) => {
  await page.goto("/token-test");
  await expect(page.getByRole("heading", { name: "Token Test" })).toBeVisible();
  // Prefilled with the local demo account.
  await expect(page.getByLabel("Email")).toHaveValue("demo@selfie.studio");
  if (!javaScriptOn) {
    await expect(page.getByText("This developer page needs JavaScript.")).toBeVisible();
    return;
  }
  await page.getByRole("button", { name: "Login" }).click();
  const card = page.getByTestId("token-user");
  await expect(card).toContainText("demo@selfie.studio");
  await expect(card).toContainText("Present");
  expect(await page.evaluate(() => localStorage.getItem("authToken"))).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // The stored token survives a reload.
  await page.reload();
  await expect(page.getByTestId("token-user")).toContainText("demo@selfie.studio");
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("authToken"))).toBeNull();
});
