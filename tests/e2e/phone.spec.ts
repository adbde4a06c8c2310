import type { Page } from "@playwright/test";
import sharp from "sharp";
import {
  expect,
  generateStyle,
  signIn,
  signInWithStyledImage,
  test,
  uploadPortrait,
} from "./fixtures";

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
  const width = await page.evaluate(() =>
    Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
  );
  expect(width, `${where} is ${width} px wide`).toBeLessThanOrEqual(WIDTH);
}

/** A small screenshot of the visible screen for docs/screens (JavaScript on only: the same markup), as a palette PNG. */
async function screen(page: Page, name: string, javaScriptOn: boolean) {
  if (!javaScriptOn) return;
  const shot = await page.screenshot({ type: "png", scale: "css" });
  await sharp(shot)
    .png({ palette: true, quality: 70, effort: 10 })
    .toFile(`docs/screens/${name}.png`);
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
  await page
    .getByTestId("uploads-strip")
    .locator(`a[href*="image=${imageId}"]:not([href*="confirmDelete"])`)
    .first()
    .click();
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
  await expect(page.getByTestId("header-cart-count").first()).toHaveText("1");
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
  const downloadUrl = new URL(href!, page.url()).toString();
  // Close is never covered (by a toast or anything else).
  await complete
    .getByRole("button", { name: "Close" })
    .or(complete.getByRole("link", { name: "Close" }))
    .first()
    .click();

  // Every download spent: the link gives a page that says why and leads to the library, never raw JSON.
  for (let spent = 0; spent < 5; spent++)
    expect((await page.request.get(downloadUrl)).status()).toBe(200);
  await page.goto(downloadUrl);
  await expect(
    page.getByRole("heading", { name: "This download link does not work" }),
  ).toBeVisible();
  await expectFits(page, "the spent download's page");
  await page.getByRole("link", { name: "Go to your library" }).click();
  await expect(page).toHaveURL(/\/library$/);

  for (const path of ["/library", "/payment-monitor", "/license", "/training", "/"]) {
    await page.goto(path);
    await expectFits(page, path);
  }
});

test("one long word (a title, a buyer's name) wraps on every page it reaches", async ({
  page,
  javaScriptOn,
}) => {
  test.setTimeout(180_000);
  const word = `Unbroken${javaScriptOn ? "Js" : "NoJs"}${Date.now().toString(36)}`.padEnd(120, "x");
  const styledId = await signInWithStyledImage(page, "anime");
  const listed = await page.request.post("/api/marketplace/post", {
    data: {
      imageId: styledId,
      title: word,
      description: word,
      price: 19,
      platforms: ["marketplace"],
    },
  });
  expect(listed.status()).toBe(200);
  for (const path of [
    "/dashboard",
    "/listings",
    `/dashboard?styled=${styledId}&step=market&panel=sell`,
  ]) {
    await page.goto(path);
    await expectFits(page, path);
  }
  await page.context().clearCookies();

  await page.goto(`/marketplace?q=${word.slice(0, 24)}`);
  const card = page.getByTestId("listing-card").filter({ hasText: word.slice(0, 24) });
  await expect(card).toHaveCount(1);
  await expectFits(page, "/marketplace with a long title");
  await card.getByTestId("add-to-cart").click();
  await expect(page.getByTestId("header-cart-count").first()).toHaveText("1");
  await expectFits(page, "/marketplace with a long title in the cart");
  await page.goto("/cart");
  await expectFits(page, "/cart");
  const checkout = page.getByTestId("checkout-form");
  await checkout.getByLabel("Name").fill(word);
  await checkout
    .getByLabel("Company")
    .fill(word)
    .catch(() => undefined);
  await checkout.getByLabel("Email").fill(`long-${Date.now().toString(36)}@example.com`);
  await checkout.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/test-checkout\//);
  await expectFits(page, "the test checkout with a long name");
  await page.getByTestId("test-pay").click();
  const complete = page.getByTestId("purchase-complete");
  await expect(complete).toContainText("Payment Successful!");
  await expectFits(page, "the purchase-complete dialog with a long title");
  const license = await complete
    .getByRole("link", { name: /license/i })
    .first()
    .getAttribute("href");
  await page.goto(license!);
  await expect(page.getByText(word.slice(0, 24)).first()).toBeVisible();
  await expectFits(page, "the license page with a long name and title");
});

test("the admin's portal on a phone: tables fit, a ban asks first", async ({
  page,
  javaScriptOn,
}) => {
  await signIn(page, "admin", "/admin");
  await expectFits(page, "/admin");
  await screen(page, "phone-admin", javaScriptOn);
  const row = page.getByTestId("user-row").filter({ hasText: "demo@selfie.studio" });
  // Scrolled to, every control of a row is wholly on the screen (nothing is cut off at the side).
  const ban = row
    .getByRole("link", { name: "Ban Dana Demo" })
    .or(row.getByRole("button", { name: "Ban Dana Demo" }));
  await ban.scrollIntoViewIfNeeded();
  await expect(ban).toBeInViewport({ ratio: 1 });
  await ban.click();
  const confirm = page.getByTestId("ban-confirmation");
  await expect(confirm).toBeVisible();
  await expectFits(page, "the ban confirmation");
  await screen(page, "phone-ban-confirmation", javaScriptOn);
  // Cancel: nobody is banned.
  await confirm
    .getByRole("button", { name: "Cancel" })
    .or(confirm.getByRole("link", { name: "Cancel" }))
    .click();
  await expect(page.getByTestId("ban-confirmation")).toHaveCount(0);
  await expect(row).not.toContainText("Banned");
  for (const testId of ["orders-section", "payouts-section"])
    await expect(page.getByTestId(testId)).toBeVisible();
});

test("the phone menu closes after choosing a page", async ({ page, javaScriptOn }) => {
  await page.goto("/marketplace");
  const toggle = page.getByRole("button", { name: /menu/i }).first();
  if (!javaScriptOn && !(await toggle.isVisible())) return;
  await toggle.click();
  await page.getByRole("navigation").getByRole("link", { name: "Training" }).last().click();
  await expect(page).toHaveURL(/\/training$/);
  await expect(
    page.getByRole("navigation").getByRole("link", { name: "Training" }).last(),
  ).toBeHidden();
  await expectFits(page, "/training");
});
