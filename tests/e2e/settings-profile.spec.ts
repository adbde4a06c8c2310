import type { APIRequestContext, Page } from "@playwright/test";
import {
  createAccount,
  expect,
  expectAccessible,
  PORTRAIT,
  submitSignIn,
  test,
  tokenFor,
} from "./fixtures";

/**
 * The Profile tab, with JavaScript on and off: a creator of its own (made by
 * the admin through the API, so the demo creator other specs use stays as it
 * is) reaches /settings from the nav, changes the name and the photo (both
 * show in the nav), and is told under the field when a handle is taken.
 */

const PASSWORD = "profile-e2e-password";

/** A new creator, made by the admin; answers its email. */
async function newCreator(
  request: APIRequestContext,
  label: string,
  firstName: string,
): Promise<string> {
  const email = `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await createAccount(request, { email, password: PASSWORD, firstName, lastName: "Profile" });
  return email;
}

async function signInAs(page: Page, email: string) {
  await submitSignIn(page, { email, password: PASSWORD }, "/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("a creator changes name and photo in Settings, and a taken handle is refused under its field", async ({
  page,
  request,
  javaScriptOn,
}) => {
  const label = javaScriptOn ? "profile-js" : "profile-nojs";
  // Another creator holds the handle first.
  const holder = await newCreator(request, `${label}-holder`, "Holder");
  const takenHandle = `taken-${label}-${Date.now() % 1e6}`;
  const holderToken = await tokenFor(request, { email: holder, password: PASSWORD });
  const claimed = await request.patch("/api/account", {
    headers: { Authorization: `Bearer ${holderToken}` },
    data: { handle: takenHandle },
  });
  expect(claimed.status()).toBe(200);

  const email = await newCreator(request, label, "Before");
  await signInAs(page, email);
  await page.getByTestId("nav-user").first().click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByLabel("First name")).toHaveValue("Before");
  await expectAccessible(page, javaScriptOn);

  // The name.
  const profile = page.getByTestId("profile-form");
  await profile.getByLabel("First name").fill("Renamed");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved").first()).toBeVisible();
  await expect(page.getByTestId("nav-user").first()).toContainText("Renamed");
  await expect(page.getByLabel("First name")).toHaveValue("Renamed");

  // The photo: square, shown in the nav and on the tab.
  const photo = page.getByTestId("photo-form");
  await photo.getByLabel("Choose a photo").setInputFiles(PORTRAIT);
  await photo.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByText("Photo updated").first()).toBeVisible();
  const navPhoto = page.getByTestId("nav-user").first().locator("img");
  await expect(navPhoto).toHaveAttribute("src", /^\/media\/avatars\/[A-Za-z0-9_-]+\.jpg$/);
  const served = await request.get((await navPhoto.getAttribute("src"))!);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/jpeg");
  await expect(page.getByTestId("profile-photo").locator("img")).toHaveAttribute(
    "src",
    (await navPhoto.getAttribute("src"))!,
  );

  // A taken handle: the field's message, and nothing saved.
  await profile.getByLabel("Public handle").fill(takenHandle.toUpperCase());
  await profile.getByLabel("First name").fill("Not saved");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(
    profile.locator(".field-error").filter({ hasText: "This handle is taken" }),
  ).toBeVisible();
  await expect(profile.getByLabel("Public handle")).toHaveAttribute("aria-invalid", "true");
  await page.goto("/settings");
  await expect(page.getByLabel("First name")).toHaveValue("Renamed");
  await expect(page.getByLabel("Public handle")).toHaveValue("");
});
