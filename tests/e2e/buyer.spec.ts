import type { Page } from "@playwright/test";
import {
  captureScreen,
  expect,
  expectAccessible,
  generateStyle,
  runTag,
  signIn,
  signOut,
  test,
  uploadPortrait,
} from "./fixtures";

const PRICE = "19.00";
const CREATOR_SHARE = "16.15"; // 85%

/** The admin's Platform Revenue card, in dollars. */
async function platformRevenue(page: Page): Promise<number> {
  await page.goto("/admin");
  const text = await page.getByTestId("stat-platform-revenue-value").innerText();
  return Number(text.replace(/[$,]/g, ""));
}

/** The demo creator makes an anime style of the portrait and lists it on the marketplace. */
async function listNewImage(page: Page, title: string, javaScriptOn: boolean): Promise<string> {
  await signIn(page, "creator");
  await uploadPortrait(page, javaScriptOn);
  const styledId = await generateStyle(page, "anime", javaScriptOn);

  await page.goto(`/listings?stylizedImageId=${encodeURIComponent(styledId)}`);
  await expect(page.getByRole("heading", { name: "List on Marketplace" })).toBeVisible();
  const form = page.getByTestId("list-on-marketplace-form");
  await form.getByLabel("Title").fill(title);
  await form
    .getByLabel("Description", { exact: true })
    .fill("A bright anime portrait, ready for your next project.");
  await form.getByLabel("Price (USD)").fill(PRICE);
  await form.getByTestId("list-on-marketplace").click();
  await expect(page.getByTestId("toast")).toContainText("Listed on the marketplace");
  const mine = page.getByTestId("my-listing").filter({ hasText: title });
  await expect(mine).toContainText("$19 · Live");
  await signOut(page);
  return styledId;
}

test.describe("a buyer", () => {
  test("buys a listed image through the built-in test checkout", async ({
    browser,
    page,
    javaScriptOn,
  }) => {
    test.setTimeout(120_000);
    const tag = runTag(javaScriptOn);
    const title = `E2E Anime ${tag}`;
    const buyer = { name: "Bea Buyer", email: `bea-${tag}@example.com` };

    // The platform's revenue before this sale (the admin watches from another browser).
    const adminContext = await browser.newContext({ javaScriptEnabled: javaScriptOn });
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, "admin", "/admin");
    const revenueBefore = await platformRevenue(adminPage);

    const styledId = await listNewImage(page, title, javaScriptOn);

    // Signed out: the listing is on the marketplace with its watermarked preview.
    await page.goto("/marketplace");
    await expect(page.getByRole("heading", { name: "Marketplace", level: 1 })).toBeVisible();
    const card = page.getByTestId("listing-card").filter({ hasText: title });
    await expect(card).toBeVisible();
    await expect(card).toContainText("by Dana");
    await expect(card).toContainText("Anime");
    await expect(card.getByTestId("listing-price")).toHaveText(`$${PRICE}`);
    const preview = card.getByRole("img", { name: `Preview of ${title} (watermarked)` });
    const previewResponse = await page.request.get((await preview.getAttribute("src"))!);
    expect(previewResponse.status()).toBe(200);
    expect(previewResponse.headers()["content-type"]).toMatch(/^image\//);
    const previewBytes = await previewResponse.body();
    await expect(page.getByTestId("header-cart-count")).toHaveText("0");
    await expectAccessible(page, javaScriptOn);
    await captureScreen(page, "marketplace", javaScriptOn);

    // The style filter is a GET form.
    const filters = page.getByRole("search");
    await filters.getByLabel("Style").selectOption("cartoon");
    await filters.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/[?&]style=cartoon/);
    await expect(page.getByTestId("listing-card").filter({ hasText: title })).toHaveCount(0);
    await filters.getByLabel("Style").selectOption("anime");
    await filters.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/[?&]style=anime/);
    await expect(card).toBeVisible();
    for (const shown of await page.getByTestId("listing-card").all())
      await expect(shown).toContainText("Anime");

    // Into the cart.
    await card.getByTestId("add-to-cart").click();
    await expect(page.getByTestId("header-cart-count")).toHaveText("1");
    await expect(card.getByTestId("remove-from-cart")).toBeVisible();
    await expect(page.getByTestId("cart-total")).toHaveText(`$${PRICE}`);

    // Checkout: a dialog with JavaScript, the /cart page without.
    await page.getByTestId("checkout-button").click();
    const checkout = page.getByTestId("checkout-form");
    if (javaScriptOn) {
      await expect(page.getByRole("dialog", { name: "Checkout" })).toContainText(
        "Enter your details to pay and receive your download links.",
      );
      await expect(page.getByTestId("checkout-dialog")).toBeVisible();
    } else {
      await expect(page).toHaveURL(/\/cart$/);
      await expect(page.getByRole("heading", { name: "Checkout", level: 1 })).toBeVisible();
      await expect(page.getByTestId("cart")).toContainText(title);
    }
    await expect(checkout).toContainText(
      `1 image. Total $${PRICE} before any discount code or tax`,
    );
    await checkout.getByRole("button", { name: "Proceed to Payment" }).click();
    // One summary beside the field errors: the toast with JavaScript, an alert in the form without.
    if (javaScriptOn) {
      await expect(page.getByTestId("toast")).toContainText("Missing Information");
      await expect(page.getByTestId("missing-information")).toHaveCount(0);
    } else {
      const missing = page.getByTestId("missing-information");
      await expect(missing).toHaveAttribute("role", "alert");
      await expect(missing).toContainText("Missing Information");
      await expect(missing).toContainText("Please fill in your name and email address.");
    }
    await expectAccessible(page, javaScriptOn);
    await captureScreen(page, "checkout", javaScriptOn);
    await checkout.getByLabel("Name").fill(buyer.name);
    await checkout.getByLabel("Email").fill(buyer.email);
    await checkout.getByRole("button", { name: "Proceed to Payment" }).click();

    // The built-in test checkout, clearly marked.
    await expect(page).toHaveURL(/\/test-checkout\/[^/?]+$/);
    const sessionId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
    await expect(page.getByTestId("test-mode-banner")).toContainText("TEST MODE");
    await expect(page.getByTestId("test-checkout-items")).toContainText(title);
    await expect(page.getByTestId("test-checkout-total")).toHaveText(`$${PRICE}`);
    // The checkout dialog's "Missing Information" toast (shown moments ago) stayed on its page:
    // counted once, not waited for (it would close by itself after a few seconds anyway).
    expect(await page.getByTestId("toast").count(), "a toast from the page before").toBe(0);
    await expect(page.getByText(`${buyer.name} · ${buyer.email}`)).toBeVisible();
    await expectAccessible(page, javaScriptOn);
    await captureScreen(page, "test-checkout", javaScriptOn);
    await page.getByTestId("test-pay").click();

    // Back on the marketplace: purchase complete, with the download and the license.
    await expect(page).toHaveURL(
      new RegExp(`/marketplace\\?session_id=${encodeURIComponent(sessionId)}&success=true$`),
    );
    const complete = page.getByTestId("purchase-complete");
    await expect(complete).toContainText("Payment Successful!");
    // Greeted by the name the buyer typed, not the address.
    await expect(complete).toContainText(`Thank you, ${buyer.name}.`);
    await expect(complete.getByTestId("download-filename")).toHaveCount(1);
    await expect(complete).toContainText("Style:");
    if (javaScriptOn)
      await expect(page.getByRole("dialog", { name: "Payment Successful!" })).toContainText(
        buyer.name,
      );
    // The paid cart is emptied.
    await expect(page.getByTestId("header-cart-count")).toHaveText("0");
    const download = await page.request.get(
      (await complete.getByTestId("download-link").getAttribute("href"))!,
    );
    expect(download.status()).toBe(200);
    expect(download.headers()["content-disposition"]).toMatch(/^attachment/);
    expect(download.headers()["content-type"]).toMatch(/^image\//);
    const downloadBytes = await download.body();
    expect(downloadBytes.length).toBeGreaterThan(1000);
    // The buyer gets the clean file, not the watermarked preview.
    expect(downloadBytes.equals(previewBytes)).toBe(false);
    await expectAccessible(page, javaScriptOn);
    await captureScreen(page, "purchase-complete", javaScriptOn);

    await complete.getByTestId("license-link").click();
    await expect(page).toHaveURL(/\/licenses\/[^/?]+$/);
    await expect(
      page.getByRole("heading", { name: "Standard Commercial License", level: 1 }),
    ).toBeVisible();
    const license = page.getByTestId("license");
    await expect(license).toContainText(title);
    await expect(license).toContainText(buyer.name);
    await expect(license).toContainText(`$${PRICE} USD`);
    await expectAccessible(page, javaScriptOn);
    await captureScreen(page, "license", javaScriptOn);

    // Closing the purchase-complete view clears the query string.
    await page.goBack();
    await expect(page.getByTestId("purchase-complete")).toContainText("Payment Successful!");
    await page
      .getByTestId("purchase-complete")
      .getByRole(javaScriptOn ? "button" : "link", { name: "Close" })
      .click();
    await expect(page).toHaveURL(/\/marketplace$/);
    await expect(page.getByTestId("purchase-complete")).toHaveCount(0);

    // The creator sees the payment in the Payment Monitor and 85% in the earnings.
    await signIn(page, "creator");
    await page.goto(`/payment-monitor?session_id=${encodeURIComponent(sessionId)}`);
    await expect(page.getByLabel("Checkout session ID")).toHaveValue(sessionId);
    await expect(page.getByTestId("payment-status")).toHaveText("completed");
    await expect(page.getByTestId("payment-status")).toHaveAttribute("data-colour", "green");
    await expect(page.getByTestId("payment-email")).toHaveText(buyer.email);
    await expect(page.getByTestId("payment-total")).toHaveText(`$${PRICE}`);
    await expect(page.getByTestId("payment-success")).toContainText("Yes");
    await expect(page.getByRole("heading", { name: "Available Downloads" })).toBeVisible();
    await expect(page.getByTestId("download-link")).toHaveCount(1);
    await expectAccessible(page, javaScriptOn);
    await captureScreen(page, "payment-monitor", javaScriptOn);

    const earnings = await page.request.get("/api/token-earnings");
    expect(earnings.status()).toBe(200);
    const ledger = (await earnings.json()) as {
      totalEarnings: number;
      records: {
        amount: string;
        imageId: string | null;
        saleReference: string;
        testMode?: boolean;
      }[];
    };
    expect(
      ledger.records.filter((record) => record.imageId === styledId).map((record) => record.amount),
    ).toEqual([CREATOR_SHARE]);
    // The dashboard's Earnings card shows the same total.
    await page.goto("/dashboard");
    const total = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(
      ledger.totalEarnings,
    );
    await expect(
      page
        .locator("dl div", { has: page.locator("dt", { hasText: "Earnings" }) })
        .locator("dd")
        .first(),
    ).toHaveText(total);

    // This server runs in production with the test checkout allowed for a demo: the sale is listed,
    // marked as a test, and the platform's 15% is never counted as revenue.
    expect(ledger.records.find((record) => record.imageId === styledId)?.testMode).toBe(true);
    expect((await platformRevenue(adminPage)) - revenueBefore).toBeCloseTo(0, 2);
    await adminContext.close();
  });
});
