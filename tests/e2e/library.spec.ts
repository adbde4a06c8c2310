import { expect, expectAccessible, receiptLibraryLink, runTag, test } from "./fixtures";

/**
 * The receipt and the buyer's library, with JavaScript on and off: a buyer
 * buys a seeded listing through the built-in test checkout, the receipt is
 * read from the newest .eml to the buyer in the e2e server's outbox (no
 * SMTP_URL there), its library link opens /library with the purchase, and
 * the library's Download link serves the file, and the buyer rates the
 * purchase there (its marketplace card then shows the buyers' rating). Then
 * the form on /library asks for a new link and ends on the same confirmation.
 */

test.describe("the buyer's library", () => {
  test("a receipt's library link shows the purchase and downloads the file", async ({
    page,
    javaScriptOn,
  }) => {
    test.setTimeout(120_000);
    const tag = runTag(javaScriptOn);
    const buyer = { name: "Lib Buyer", email: `lib-${tag}@example.com` };

    // A seeded listing into the cart.
    await page.goto("/marketplace");
    const card = page.getByTestId("listing-card").first();
    await expect(card).toBeVisible();
    const title = (await card.getByRole("heading").first().innerText()).trim();
    await card.getByTestId("add-to-cart").click();
    await expect(page.getByTestId("header-cart-count")).toHaveText("1");

    // Checkout: a dialog with JavaScript, the /cart page without.
    await page.getByTestId("checkout-button").click();
    if (!javaScriptOn) await expect(page).toHaveURL(/\/cart$/);
    const checkout = page.getByTestId("checkout-form");
    await checkout.getByLabel("Name").fill(buyer.name);
    await checkout.getByLabel("Email").fill(buyer.email);
    await checkout.getByRole("button", { name: "Proceed to Payment" }).click();
    await expect(page).toHaveURL(/\/test-checkout\/[^/?]+$/);
    await page.getByTestId("test-pay").click();

    // Purchase complete: it offers the library link too.
    const complete = page.getByTestId("purchase-complete");
    await expect(complete).toContainText("Payment Successful!");
    await expect(complete.getByTestId("library-link-form")).toBeVisible();

    // The receipt, and its library link.
    const link = new URL(await receiptLibraryLink(buyer.email));
    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByRole("heading", { name: "Your library", level: 1 })).toBeVisible();
    await expect(page.getByTestId("library")).toContainText(buyer.email);
    const orders = page.getByTestId("library-order");
    await expect(orders).toHaveCount(1);
    const item = orders.first().getByTestId("library-item");
    await expect(item).toHaveCount(1);
    await expect(item).toContainText(title);
    await expect(item.getByTestId("license-link")).toHaveAttribute("href", /\/licenses\/[^/?]+$/);
    await expectAccessible(page, javaScriptOn);

    const href = await item.getByTestId("download-link").getAttribute("href");
    expect(href).toMatch(/\/downloads\/[A-Za-z0-9_-]+$/);
    const download = await page.request.get(href!);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-disposition"]).toMatch(/^attachment/);
    expect(download.headers()["content-type"]).toMatch(/^image\//);
    expect((await download.body()).length).toBeGreaterThan(1000);

    // The license opens from the library.
    await item.getByTestId("license-link").click();
    await expect(page).toHaveURL(/\/licenses\/[^/?]+$/);
    await expect(page.getByTestId("license")).toContainText(title);

    // The buyer who paid rates the purchase from the library (a plain form post).
    await page.goto(`${link.pathname}${link.search}`);
    const rating = page.getByTestId("library-item").first().getByTestId("rating-form");
    await rating.getByLabel("4 stars").check();
    await rating.getByLabel(/A few words/).fill("Sharp and well lit.");
    await rating.getByRole("button", { name: "Save rating" }).click();
    await expect(page.getByTestId("rating-saved")).toHaveText("Thank you: your rating is saved.");
    await expect(page.getByTestId("rating-form").first()).toContainText(
      "Your rating: 4 of 5 stars",
    );
    await expect(
      page
        .getByTestId("rating-form")
        .first()
        .getByLabel(/A few words/),
    ).toHaveValue("Sharp and well lit.");
    await expectAccessible(page, javaScriptOn);
    // Its marketplace card now shows the buyers' average and count instead of the illustrative stars.
    await page.goto("/marketplace");
    const rated = page
      .getByTestId("listing-card")
      .filter({ has: page.getByRole("heading", { name: title, exact: true }) });
    await expect(rated.getByTestId("buyer-rating")).toContainText(/\(\d+ ratings?\)/);
    await expect(rated.getByTestId("illustrative-rating")).toHaveCount(0);

    // Without a token: the form, and the same confirmation for any email.
    await page.goto("/library");
    const form = page.getByTestId("library-link-form");
    await expect(form).toBeVisible();
    await expectAccessible(page, javaScriptOn);
    await form.getByLabel("Email").fill(`nobody-${tag}@example.com`);
    await form.getByRole("button", { name: "Email me my library link" }).click();
    await expect(page).toHaveURL(/\/library\?sent=1$/);
    await expect(page.getByTestId("library-link-sent")).toContainText(
      "If that email has purchases",
    );
  });
});
