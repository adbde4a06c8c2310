import { expect, listStyle, runTag, signIn, signOut, test } from "./fixtures";

/**
 * Tax at the built-in test checkout (the browser tests' server runs with
 * TAX=on): a buyer who says they are in Germany sees 19 % VAT on top of the
 * price on the test checkout page before paying, and on the receipt after,
 * with JavaScript (the cart's dialog) and without (the /cart page).
 */
test("a buyer in Germany sees the VAT before paying and on the receipt", async ({
  page,
  javaScriptOn,
}) => {
  test.setTimeout(120_000);
  const tag = runTag(javaScriptOn);
  const title = `E2E Taxed ${tag}`;

  await signIn(page, "creator");
  await listStyle(page, "anime", title, "10.00");
  await signOut(page);

  await page.goto("/marketplace");
  const card = page.getByTestId("listing-card").filter({ hasText: title });
  await card.getByTestId("add-to-cart").click();
  await expect(page.getByTestId("header-cart-count")).toHaveText("1");
  await page.getByTestId("checkout-button").click();
  const checkout = page.getByTestId("checkout-form");
  await checkout.getByLabel("Name").fill("Dana Deutsch");
  await checkout.getByLabel("Email").fill(`dana-${tag}@example.com`);
  await checkout.getByLabel("Country (optional)").selectOption("DE");
  await checkout.getByRole("button", { name: "Proceed to Payment" }).click();

  await expect(page).toHaveURL(/\/test-checkout\/[^/?]+$/);
  await expect(page.getByTestId("test-checkout-subtotal")).toHaveText("$10.00");
  await expect(page.getByText("VAT 19% (Germany)")).toBeVisible();
  await expect(page.getByTestId("test-checkout-tax")).toHaveText("$1.90");
  await expect(page.getByTestId("test-checkout-total")).toHaveText("$11.90");
  await page.getByTestId("test-pay").click();

  const complete = page.getByTestId("purchase-complete");
  await expect(complete).toContainText("Payment Successful!");
  const amounts = complete.getByTestId("receipt-amounts");
  await expect(amounts).toContainText("VAT 19% (Germany)");
  await expect(amounts.getByTestId("receipt-tax")).toHaveText("$1.90");
  await expect(amounts.getByTestId("receipt-total")).toHaveText("$11.90");
});
