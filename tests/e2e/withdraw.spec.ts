import {
  TAP_DEVICES,
  expect,
  expectAccessible,
  signInWithStyledImage,
  tap,
  test,
} from "./fixtures";

/**
 * Withdraw on /listings asks first: a link to ?confirmWithdraw=<id> that shows
 * the confirmation (a dialog with JavaScript, a panel in the page without);
 * Cancel leaves the listing live, and only the confirmation's Withdraw button
 * takes it off the marketplace. Tapped as a finger does, desktop and phone.
 */
for (const device of TAP_DEVICES) {
  test.describe(`withdrawing a listing on a ${device.name}`, () => {
    test.use(device.use);

    test("asks first: Cancel keeps it live, the confirmation's Withdraw takes it off the marketplace", async ({
      page,
      javaScriptOn,
    }) => {
      test.setTimeout(120_000);
      const styledId = await signInWithStyledImage(page, "cartoon");
      const title = `Withdrawn ${device.name} ${javaScriptOn ? "js" : "nojs"} ${Date.now()}`;
      await page.goto(`/listings?stylizedImageId=${encodeURIComponent(styledId)}`);
      const form = page.getByTestId("list-on-marketplace-form");
      await form.getByLabel("Title").fill(title);
      await form.getByLabel("Price (USD)").fill("12");
      await form.getByTestId("list-on-marketplace").click();
      await expect(page.getByTestId("toast")).toContainText("Listed on the marketplace");

      await page.goto("/listings");
      const card = page.getByTestId("my-listing").filter({ hasText: title });
      await expect(card).toContainText("Live");

      // Withdraw… only opens the confirmation; Cancel closes it and the listing stays live.
      await tap(page, card.getByRole("link", { name: `Withdraw… “${title}”` }));
      await expect(page).toHaveURL(/[?&]confirmWithdraw=/);
      const confirmation = page.getByTestId("withdraw-confirmation");
      await expect(confirmation).toBeVisible();
      await expect(page.getByRole("dialog", { name: `Withdraw “${title}”?` })).toBeVisible();
      await expectAccessible(page, javaScriptOn);
      await tap(page, confirmation.getByRole(javaScriptOn ? "button" : "link", { name: "Cancel" }));
      await expect(confirmation).toBeHidden();
      await expect(page).not.toHaveURL(/confirmWithdraw=/);
      await expect(card).toContainText("Live");

      // The confirmation's Withdraw button does it.
      await tap(page, card.getByRole("link", { name: `Withdraw… “${title}”` }));
      await expect(confirmation).toBeVisible();
      await tap(page, confirmation.getByRole("button", { name: "Withdraw" }));
      await expect(page.getByTestId("toast")).toContainText("Listing withdrawn");
      await expect(page).not.toHaveURL(/confirmWithdraw=/);
      await expect(card).toContainText("Withdrawn");
      await expect(card.getByRole("link", { name: /Withdraw/ })).toHaveCount(0);
    });
  });
}
