import type { Page } from "@playwright/test";
import { test as base, expect } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { E2E_ADMIN } from "../../playwright.config";

export { expect };

export const ACCOUNTS = {
  admin: E2E_ADMIN,
  // The demo creator seeded by `node scripts/start.mjs --seed` (db/seed.ts).
  creator: { email: "demo@selfie.studio", password: "demo-creator" },
} as const;

export type Role = keyof typeof ACCOUNTS;

export const test = base.extend<{ javaScriptOn: boolean }>({
  javaScriptOn: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled);
  },
});

/** Signs in through the real /auth form (works with JavaScript on and off). */
export async function signIn(page: Page, role: Role, redirectTo?: string) {
  const { email, password } = ACCOUNTS[role];
  await page.goto(redirectTo ? `/auth?redirectTo=${encodeURIComponent(redirectTo)}` : "/auth");
  const form = page.locator("form#login");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(redirectTo ? new RegExp(redirectTo.replace(/[?]/g, "\\?")) : /\/dashboard$/);
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign Out" }).first().click();
  await expect(page.getByRole("link", { name: "Sign In" }).first()).toBeVisible();
}

/**
 * Fails on any serious or critical axe violation of the current page. axe runs
 * inside the page, so it checks the JavaScript-on render (the same markup the
 * server sends to a browser without JavaScript).
 */
export async function expectAccessible(page: Page, javaScriptOn: boolean) {
  if (!javaScriptOn) return;
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

/**
 * Saves a full-page screenshot of the current screen at phone and desktop widths
 * (tests/e2e/screenshots, gitignored) for review.
 */
export async function captureScreen(page: Page, name: string, javaScriptOn: boolean) {
  const original = page.viewportSize();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({
      path: `tests/e2e/screenshots/${name}-${width}${javaScriptOn ? "" : "-nojs"}.png`,
      fullPage: true,
    });
  }
  if (original) await page.setViewportSize(original);
}
