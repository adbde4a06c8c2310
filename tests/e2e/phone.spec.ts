import type { Page } from "@playwright/test";
import { expect, generateStyle, signIn, test, uploadPortrait } from "./fixtures";

/**
 * The journeys on a phone (390 × 844, touch), with JavaScript on and off:
 * the creator's pipeline (upload, style, launch with tags that end in a
 * comma, payouts, integrations) and the buyer's (marketplace, cart from the
 * top of the page, checkout, purchase, library). On every page visited,
 * nothing is wider than the screen; every tap goes through Playwright's
 * actionability checks (visible, stable, not covered by a toast or a menu),
 * never `force`. Small screenshots of each step go to docs/screens/.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const WIDTH = 390;

/** Nothing on the page is wider than the phone's screen. */
async function expectFits(page: Page, where: string) {
  const width = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
  expect(width, `${where} is ${width} px wide`).toBeLessThanOrEqual(WIDTH);
}

/** A small screenshot of the visible screen for docs/screens (JavaScript on only: the same markup). */
async function screen(page: Page, name: string, javaScriptOn: boolean) {
  if (!javaScriptOn) return;
  await page.screenshot({ path: `docs/screens/${name}.png`, type: "png", scale: "css" });
}

test("the creator's pipeline on a phone", async ({ page, javaScriptOn }) => {
  test.setTimeout(180_000);
  await signIn(page, "creator");
  await expectFits(page, "/dashboard");
  await screen(page, "phone-dashboard", javaScriptOn);

  const imageId = await uploadPortrait(page, javaScriptOn);
  await expectFits(page, "the style step");
  await screen(page, "phone-style", javaScriptOn);
  const styledId = await generateStyle(page, "anime", javaScriptOn);
  await expectFits(page, "the optimize step");
  await screen(page, "phone-optimize", javaScriptOn);

  // A returning creator reaches the earlier upload from the dashboard in one tap.
  await page.goto("/dashboard");
  await page.getByTestId("uploads-strip").locator(`a[href*="image=${imageId}"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`image=${imageId}`));

  // Launch with tags that end in a comma.
  await page.goto(`/dashboard?styled=${styledId}&step=market&panel=launch`);
  await expectFits(page, "the launch panel");
  const launch = page.getByTestId("launch-form");
  await launch.getByLabel("Title").fill(`Phone launch ${javaScriptOn ? "js" : "nojs"}`);
  await launch.getByLabel("Price (USD)").fill("12.50");
  await launch.getByLabel("Tags").fill("astronaut, portrait,");
  await screen(page, "phone-launch", javaScriptOn);
  await launch.getByRole("button", { name: "Launch Marketing" }).click();
  await expect(page.getByTestId("launch-result")).toBeVisible({ timeout: 30_000 });
  await expectFits(page, "the launch result");

  for (const path of ["/payouts", "/integrations", "/listings"]) {
    await page.goto(path);
    await expectFits(page, path);
  }
  await page.goto("/payouts");
  await screen(page, "phone-payouts", javaScriptOn);
});

test("the buyer's journey on a phone", async ({ page, javaScriptOn }) => {
  test.setTimeout(120_000);
  const email = `phone-${javaScriptOn ? "js" : "nojs"}-${Date.now().toString(36)}@example.com`;
  await page.goto("/marketplace");
  await expectFits(page, "/marketplace");
  await screen(page, "phone-marketplace", javaScriptOn);
  const card = page.getByTestId("listing-card").first();
  await card.getByTestId("add-to-cart").click();
  // Feedback at once, and the cart is reachable from the top of the page.
  await expect(page.getByTestId("cart-count").first()).toHaveText("1 item");
  await expectFits(page, "/marketplace with a cart");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByTestId("checkout-button").first().click();
  const checkout = page.getByTestId("checkout-form");
  await expect(checkout).toBeVisible();
  await expectFits(page, "the checkout");
  await screen(page, "phone-checkout", javaScriptOn);
  await checkout.getByLabel("Name").fill("Phone Buyer");
  await checkout.getByLabel("Email").fill(email);
  await checkout.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/test-checkout\//);
  await expectFits(page, "the test checkout");
  await screen(page, "phone-test-checkout", javaScriptOn);
  await page.getByTestId("test-pay").click();
  const complete = page.getByTestId("purchase-complete");
  await expect(complete).toContainText("Payment Successful!");
  await expectFits(page, "the purchase-complete dialog");
  await screen(page, "phone-purchase-complete", javaScriptOn);
  const href = await complete.getByTestId("download-link").first().getAttribute("href");
  expect((await page.request.head(href!)).status()).toBe(200);
  // Close is never covered (by a toast or anything else).
  await complete.getByRole("button", { name: "Close" }).or(complete.getByRole("link", { name: "Close" })).first().click();

  for (const path of ["/library", "/payment-monitor", "/license", "/training", "/"]) {
    await page.goto(path);
    await expectFits(page, path);
  }
});

test("the phone menu closes after choosing a page", async ({ page, javaScriptOn }) => {
  await page.goto("/marketplace");
  const toggle = page.getByRole("button", { name: /menu/i }).first();
  if (!javaScriptOn && !(await toggle.isVisible())) return;
  await toggle.click();
  await page.getByRole("navigation").getByRole("link", { name: "Training" }).last().click();
  await expect(page).toHaveURL(/\/training$/);
  await expect(page.getByRole("navigation").getByRole("link", { name: "Training" }).last()).toBeHidden();
  await expectFits(page, "/training");
});
