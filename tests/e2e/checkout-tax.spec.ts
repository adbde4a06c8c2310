import { TAP_DEVICES, expect, listStyle, runTag, signIn, signOut, tap, test } from "./fixtures";

/**
 * Money at the built-in test checkout (the browser tests' server runs with
 * TAX=on), with JavaScript on and off, on a desktop and on a phone (every
 * control tapped at its centre): the creator prices an Extended licence and
 * makes a discount code on the Discounts screen; a buyer in Germany picks the
 * Extended licence on the listing page, types the code at the cart, and sees
 * the licence, the discount and 19 % VAT on the test checkout page before
 * paying and on the receipt after.
 */
test("a buyer in Germany buys an Extended licence with a discount code and sees the discount and the VAT before paying and on the receipt", async ({
  browser,
  page,
  javaScriptOn,
}) => {
  test.setTimeout(180_000);
  const tag = runTag(javaScriptOn);
  const title = `E2E Extended ${tag}`;
  const code = `DE-${tag}`
    .slice(0, 24)
    .toUpperCase()
    .replace(/[^A-Z0-9_-]/g, "");

  await signIn(page, "creator");
  await listStyle(page, "anime", title, "10.00", { extendedPrice: "40.00" });
  await page.goto("/discounts");
  const form = page.getByTestId("discount-form");
  await form.getByLabel("Code").fill(code);
  await form.getByLabel("Percent off").fill("25");
  await form.getByRole("checkbox", { name: title }).check();
  await form.getByTestId("make-discount").click();
  await expect(page.getByTestId("toast")).toContainText("Discount code made");
  await signOut(page);

  await page.goto("/marketplace");
  const listingPath = await page
    .getByTestId("listing-card")
    .filter({ hasText: title })
    .locator('a[href^="/marketplace/"]')
    .first()
    .getAttribute("href");
  expect(listingPath).toMatch(/^\/marketplace\/[\w-]+$/);

  for (const device of TAP_DEVICES) {
    const context = await browser.newContext({ ...device.use, javaScriptEnabled: javaScriptOn });
    const buyer = await context.newPage();
    await buyer.goto(listingPath!);
    const picker = buyer.getByTestId("license-picker");
    await expect(picker.getByTestId("license-option-extended")).toBeVisible();
    await tap(buyer, picker.getByTestId("license-option-extended"));
    await expect(picker.getByTestId("license-option-extended")).toBeChecked();
    await tap(buyer, picker.getByTestId("buy-now"));

    await expect(buyer, device.name).toHaveURL(/\/cart$/);
    const checkout = buyer.getByTestId("checkout-form");
    await tap(buyer, checkout.getByLabel("Name"));
    await checkout.getByLabel("Name").fill("Dana Deutsch");
    await tap(buyer, checkout.getByLabel("Email"));
    await checkout.getByLabel("Email").fill(`dana-${device.name}-${tag}@example.com`);
    await checkout.getByLabel("Country (optional)").selectOption("DE");
    await tap(buyer, checkout.getByLabel("Discount code (optional)"));
    await checkout.getByLabel("Discount code (optional)").fill(code.toLowerCase());
    await tap(buyer, checkout.getByRole("button", { name: "Proceed to Payment" }));

    // $40.00 less 25 % is $30.00; 19 % VAT on that is $5.70.
    await expect(buyer, device.name).toHaveURL(/\/test-checkout\/[^/?]+$/);
    await expect(buyer.getByTestId("test-checkout-license")).toHaveText(
      "Extended Commercial License",
    );
    await expect(buyer.getByTestId("test-checkout-price")).toHaveText("$40.00");
    await expect(buyer.getByTestId("test-checkout-subtotal")).toHaveText("$40.00");
    await expect(buyer.getByTestId("test-checkout-discount")).toHaveText("-$10.00");
    await expect(buyer.getByText("VAT 19% (Germany)")).toBeVisible();
    await expect(buyer.getByTestId("test-checkout-tax")).toHaveText("$5.70");
    await expect(buyer.getByTestId("test-checkout-total")).toHaveText("$35.70");
    await tap(buyer, buyer.getByTestId("test-pay"));

    const complete = buyer.getByTestId("purchase-complete");
    await expect(complete, device.name).toContainText("Payment Successful!");
    await expect(complete.getByTestId("download-license")).toContainText("Extended license");
    const amounts = complete.getByTestId("receipt-amounts");
    await expect(amounts.getByTestId("receipt-discount")).toHaveText("-$10.00");
    await expect(amounts).toContainText("VAT 19% (Germany)");
    await expect(amounts.getByTestId("receipt-tax")).toHaveText("$5.70");
    await expect(amounts.getByTestId("receipt-total")).toHaveText("$35.70");
    await context.close();
  }
});
