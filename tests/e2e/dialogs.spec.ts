import type { Page } from "@playwright/test";
import { TAP_DEVICES, expect, signInWithStyledImage, tap, test } from "./fixtures";

/**
 * The product's dialogs driven by a real pointer: each field and button is
 * tapped at its centre (see `tap`), on a desktop and on a phone. With
 * JavaScript these are Headless UI dialogs over a backdrop; without it the same
 * forms are panels in the page, tapped the same way.
 */
for (const device of TAP_DEVICES) {
  test.describe(`dialogs tapped on a ${device.name}`, () => {
    test.use(device.use);

    test("List for Sale: every field and button takes a tap, and the listing is made", async ({
      page,
      javaScriptOn,
    }) => {
      test.setTimeout(120_000);
      const styledId = await signInWithStyledImage(page, "cartoon");
      await page.goto(`/dashboard?styled=${styledId}&step=market&panel=sell`);
      const panel = page.getByTestId("market-panel");
      if (javaScriptOn)
        await expect(page.getByRole("dialog", { name: "List for Sale" })).toBeVisible();
      const form = panel.getByTestId("list-for-sale-form");

      const own = form.getByRole("checkbox", { name: /Selfie Studio/ });
      await expect(own).toBeChecked();
      await tap(page, own);
      await expect(own).not.toBeChecked();
      await tap(page, own);
      await expect(own).toBeChecked();

      const title = `Tapped ${device.name} ${javaScriptOn ? "js" : "nojs"} ${Date.now()}`;
      await typeAfterTap(page, form.getByLabel("Title"), title);
      await typeAfterTap(page, form.getByLabel("Description"), "Listed with taps only.");
      await typeAfterTap(page, form.getByLabel("Price (USD)"), "19.99");
      if (javaScriptOn) await expect(panel).toBeVisible();

      await tap(page, form.getByRole("button", { name: "List for Sale" }));
      await expect(page.getByTestId("toast").first()).toBeVisible({ timeout: 30_000 });
      await page.goto("/listings");
      await expect(page.getByTestId("my-listing").getByText(title, { exact: true })).toBeVisible();
    });

    test("Checkout: the buyer's fields and buttons take a tap", async ({ page, javaScriptOn }) => {
      await page.goto("/marketplace");
      const card = page.getByTestId("listing-card").first();
      await tap(page, card.getByTestId("add-to-cart"));
      await expect(page.getByTestId("header-cart-count")).toHaveText("1");
      await tap(page, page.getByTestId("checkout-button"));
      if (javaScriptOn) await expect(page.getByTestId("checkout-dialog")).toBeVisible();
      else await expect(page).toHaveURL(/\/cart$/);
      const checkout = page.getByTestId("checkout-form");
      await typeAfterTap(page, checkout.getByLabel("Name"), "Tapping Buyer");
      await typeAfterTap(page, checkout.getByLabel("Email"), "tapping.buyer@example.com");
      await tap(page, checkout.getByRole("button", { name: "Proceed to Payment" }));
      await expect(page).toHaveURL(/\/test-checkout\/[^/?]+$/);
    });
  });
}

/** Taps a field, then types into it as a keyboard does (replacing what it held). */
async function typeAfterTap(page: Page, field: ReturnType<Page["locator"]>, text: string) {
  await tap(page, field);
  await expect(field).toBeFocused();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(text);
  await expect(field).toHaveValue(text);
}
