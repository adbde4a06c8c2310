import crypto from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import {
  ACCOUNTS,
  expect,
  expectAccessible,
  generateStyle,
  test,
  uploadPortrait,
} from "./fixtures";

/**
 * The consent to face processing, with JavaScript on and off: a new creator
 * (made by the admin: registration is closed in e2e) sees the consent form on
 * the Style step instead of Generate, reads the privacy page from it, agrees,
 * and generates; in Settings, Privacy they withdraw, and the Style step asks
 * again.
 */

async function newCreator(request: APIRequestContext) {
  const login = await request.post("/api/token-login", {
    data: { email: ACCOUNTS.admin.email, password: ACCOUNTS.admin.password },
  });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const creator = {
    email: `consent-${crypto.randomBytes(4).toString("hex")}@example.com`,
    password: "consent-e2e-password",
  };
  const made = await request.post("/api/admin/users", {
    headers: { Authorization: `Bearer ${token}` },
    data: { ...creator, firstName: "Nora", lastName: "New" },
  });
  expect(made.status()).toBe(201);
  return creator;
}

async function signInAs(page: Page, creator: { email: string; password: string }) {
  await page.goto("/auth");
  const form = page.locator("form#login");
  await form.getByLabel("Email").fill(creator.email);
  await form.getByLabel("Password").fill(creator.password);
  await form.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("a new creator agrees to face processing on the Style step, then generates; withdrawing asks again", async ({
  page,
  request,
  javaScriptOn,
}) => {
  test.setTimeout(120_000);
  const creator = await newCreator(request);
  await signInAs(page, creator);
  await uploadPortrait(page, javaScriptOn);

  const generator = page.getByTestId("style-generator");
  const consent = generator.getByTestId("face-consent-form");
  await expect(consent).toBeVisible();
  await expect(consent).toContainText("468 points");
  await expect(generator.getByRole("button", { name: /^Generate/ })).toHaveCount(0);
  await expectAccessible(page, javaScriptOn);

  // The form links the privacy page, which describes the engine in use.
  await expect(consent.getByRole("link", { name: "privacy page" })).toHaveAttribute(
    "href",
    "/privacy",
  );
  const styleStep = page.url();
  await consent.getByRole("link", { name: "privacy page" }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByTestId("privacy-styling")).toContainText("computed on this server");
  await expect(page.getByTestId("privacy-backups")).toContainText("still holds that data");
  await page.goto(styleStep);

  await page.getByRole("button", { name: /I agree/ }).click();
  await expect(page.getByTestId("toast")).toContainText("You can now generate styles.");
  await expect(page.getByTestId("face-consent-form")).toHaveCount(0);
  await generateStyle(page, "cartoon", javaScriptOn);

  await page.goto("/settings/privacy");
  await expect(page.getByTestId("consent-state")).toContainText("You agreed to face processing on");
  await page.getByRole("button", { name: "Withdraw consent" }).click();
  await expect(page.getByTestId("toast")).toContainText("Consent withdrawn");
  await expect(page.getByTestId("consent-state")).toContainText(
    "You have not agreed to face processing",
  );
  await page.goto(styleStep);
  await expect(page.getByTestId("face-consent-form")).toBeVisible();
});
