import crypto from "node:crypto";
import fs from "node:fs";
import { unzipSync } from "fflate";
import { E2E_ADMIN } from "../../playwright.config";
import { PORTRAIT, expect, test } from "./fixtures";

/**
 * Your data (/settings/export), with JavaScript on and off: a creator with an
 * upload asks for an export, waits until it is ready, downloads the zip, and
 * the zip opens and holds their account and their image. Each run uses a
 * fresh creator (one export an hour per creator).
 */
test("a creator exports their data and the zip opens", async ({ page, request }) => {
  test.setTimeout(120_000);
  // A fresh creator, made by the admin, with one upload.
  const adminLogin = await request.post("/api/token-login", {
    data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
  });
  const { token: adminToken } = (await adminLogin.json()) as { token: string };
  const email = `exporter-${crypto.randomBytes(4).toString("hex")}@example.com`;
  const password = "export-e2e-password";
  const made = await request.post("/api/admin/users", {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { email, password, firstName: "Erin", lastName: "Exporter" },
  });
  expect(made.status()).toBe(201);
  const login = await request.post("/api/token-login", { data: { email, password } });
  const { token } = (await login.json()) as { token: string };
  const uploaded = await request.post("/api/token-images/upload", {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      image: { name: "portrait.png", mimeType: "image/png", buffer: fs.readFileSync(PORTRAIT) },
    },
  });
  expect(uploaded.status()).toBe(201);
  const { id: imageId } = (await uploaded.json()) as { id: string };

  // Sign in on the form, straight to Your data.
  await page.goto(`/auth?redirectTo=${encodeURIComponent("/settings/export")}`);
  const form = page.locator("form#login");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/settings\/export$/);
  await expect(page.getByTestId("data-export-state")).toHaveText(
    "You have not asked for an export yet.",
  );

  await page.getByRole("button", { name: "Ask for an export" }).click();
  await expect(page.getByText("Export on its way")).toBeVisible();
  // With JavaScript the tab looks again by itself; without, the page refreshes itself.
  const download = page.getByTestId("data-export-download");
  await expect(download).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("button", { name: /Ask for/ })).toHaveCount(0);

  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  expect(file.suggestedFilename()).toBe("selfie-studio-data.zip");
  const entries = unzipSync(fs.readFileSync((await file.path())!));
  const account = JSON.parse(Buffer.from(entries["account.json"]).toString("utf8"));
  expect(account.account).toMatchObject({ email, firstName: "Erin", lastName: "Exporter" });
  const original = Object.keys(entries).find((name) =>
    name.startsWith(`images/originals/${imageId}.`),
  );
  expect(original, "the upload is in the zip").toBeTruthy();
  expect(entries[original!].byteLength).toBeGreaterThan(1000);
  for (const name of ["listings.json", "sales.json", "payouts.json", "files.json"])
    expect(entries[name], name).toBeDefined();
});
