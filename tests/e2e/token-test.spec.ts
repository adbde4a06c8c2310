import { DEMO_CREATOR } from "../../db/demo-account";
import { expect, test } from "./fixtures";

test("token test: token login, the current user, logout", async ({ page, javaScriptOn }) => {
  await page.goto("/token-test");
  await expect(page.getByRole("heading", { name: "Token Test" })).toBeVisible();
  // A production server prefills nothing: no account's email or password in the page.
  await expect(page.getByLabel("Email")).toHaveValue("");
  await expect(page.getByLabel("Password")).toHaveValue("");
  if (!javaScriptOn) {
    await expect(page.getByText("This developer page needs JavaScript.")).toBeVisible();
    return;
  }
  await page.getByLabel("Email").fill(DEMO_CREATOR.email);
  await page.getByLabel("Password").fill(DEMO_CREATOR.password);
  await page.getByRole("button", { name: "Login" }).click();
  const card = page.getByTestId("token-user");
  await expect(card).toContainText("demo@selfie.studio");
  await expect(card).toContainText("Present");
  expect(await page.evaluate(() => localStorage.getItem("authToken"))).toMatch(
    /^[A-Za-z0-9_-]{43}$/,
  );
  // The image upload test posts the single field `image` with the bearer token.
  const alerts: string[] = [];
  page.on("dialog", (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Test Image Upload" }).click();
  await (await chooser).setFiles("tests/fixtures/portrait.png");
  await expect.poll(() => alerts.length, { timeout: 20_000 }).toBe(1);
  expect(alerts[0]).toMatch(/^Upload successful: \{"id":"[^"]+","userId":/);
  const chooserAgain = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Test Image Upload" }).click();
  await (
    await chooserAgain
  ).setFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not an image") });
  await expect.poll(() => alerts.length, { timeout: 20_000 }).toBe(2);
  expect(alerts[1]).toBe(
    'Upload failed: {"message":"Please select a valid image file (JPG or PNG)."}',
  );
  // The stored token survives a reload.
  await page.reload();
  await expect(page.getByTestId("token-user")).toContainText("demo@selfie.studio");
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("authToken"))).toBeNull();
});
