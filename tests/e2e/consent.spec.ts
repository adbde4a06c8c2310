import crypto from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import {
  createAccount,
  expect,
  expectAccessible,
  generateStyle,
  signIn,
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
  const creator = {
    email: `consent-${crypto.randomBytes(4).toString("hex")}@example.com`,
    password: "consent-e2e-password",
  };
  await createAccount(request, { ...creator, firstName: "Nora", lastName: "New" });
  return creator;
}

test("a new creator agrees to face processing on the Style step, then generates; withdrawing asks again", async ({
  page,
  request,
  javaScriptOn,
}) => {
  test.setTimeout(120_000);
  const creator = await newCreator(request);
  await signIn(page, creator);
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
