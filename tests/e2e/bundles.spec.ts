import {
  TAP_DEVICES,
  expect,
  expectAccessible,
  listStyle,
  runTag,
  signIn,
  signOut,
  tap,
  test,
} from "./fixtures";

/**
 * Bundles end to end, with JavaScript on and off: the demo creator lists two
 * styles, makes a bundle of them with the form on My listings, and a visitor
 * on a phone opens the bundle's page, buys it through the built-in test
 * checkout (every control tapped at its centre) and gets a download for each image.
 */

test("a creator makes a bundle with the form and a visitor on a phone buys it, getting each image", async ({
  browser,
  page,
  javaScriptOn,
}) => {
  test.setTimeout(180_000);
  const tag = runTag(javaScriptOn);
  const first = `Bundle anime ${tag}`;
  const second = `Bundle cartoon ${tag}`;
  const bundleTitle = `Two looks ${tag}`;

  await signIn(page, "creator");
  await listStyle(page, "anime", first, "6");
  await listStyle(page, "cartoon", second, "4");

  // Make a bundle on My listings; a price not below the sum comes back beside its field.
  await page.goto("/listings");
  const form = page.getByTestId("bundle-form");
  await form.getByLabel("Title").fill(bundleTitle);
  await form.getByRole("checkbox", { name: first }).check();
  await form.getByRole("checkbox", { name: second }).check();
  await form.getByLabel("Bundle price (USD)").fill("10");
  await form.getByTestId("make-bundle").click();
  await expect(page.getByTestId("bundle-form")).toContainText(
    "A bundle's price must be below the sum of its items' prices ($10.00).",
  );
  await expect(page.getByTestId("bundle-form").getByLabel("Title")).toHaveValue(bundleTitle);
  await expect(
    page.getByTestId("bundle-form").getByRole("checkbox", { name: first }),
  ).toBeChecked();
  await page.getByTestId("bundle-form").getByLabel("Bundle price (USD)").fill("8");
  await page.getByTestId("make-bundle").click();
  await expect(page.getByTestId("toast")).toContainText("Bundle made");
  const mine = page.getByTestId("my-bundle").filter({ hasText: bundleTitle });
  await expect(mine).toContainText("2 images · $8.00 (their sum $10.00) · Live");
  const bundlePath = await mine.getByRole("link", { name: /View/ }).getAttribute("href");
  expect(bundlePath).toMatch(/^\/bundles\/[\w-]+$/);
  await signOut(page);

  // A visitor on a phone.
  const phone = TAP_DEVICES.find((device) => device.name === "phone")!;
  const visitorContext = await browser.newContext({
    ...phone.use,
    javaScriptEnabled: javaScriptOn,
  });
  const visitor = await visitorContext.newPage();
  await visitor.goto(bundlePath!);
  await expect(visitor.getByTestId("bundle-title")).toHaveText(bundleTitle);
  await expect(visitor.getByText("A bundle of 2 images by")).toBeVisible();
  const items = visitor.getByTestId("bundle-item");
  await expect(items).toHaveCount(2);
  // In the form's order (My listings shows the newest first).
  await expect(items.filter({ hasText: first })).toContainText("$6.00");
  await expect(items.filter({ hasText: second })).toContainText("$4.00");
  await expect(visitor.getByTestId("bundle-sum")).toHaveText("$10.00");
  await expect(visitor.getByTestId("bundle-price")).toHaveText("$8.00");
  await expect(visitor.getByTestId("bundle-saving")).toHaveText("$2.00");
  await expectAccessible(visitor, javaScriptOn);

  await tap(visitor, visitor.getByTestId("buy-now"));
  await expect(visitor).toHaveURL(/\/cart$/);
  await expect(visitor.getByTestId("cart")).toContainText(bundleTitle);
  await expect(visitor.getByTestId("cart")).toContainText("Bundle of 2 images");
  const checkout = visitor.getByTestId("checkout-form");
  await expect(checkout).toContainText("2 images. Total $8.00 before any discount code or tax");
  await tap(visitor, checkout.getByLabel("Name"));
  await checkout.getByLabel("Name").fill("Bea Bundle");
  await tap(visitor, checkout.getByLabel("Email"));
  await checkout.getByLabel("Email").fill(`bea-${tag}@example.com`);
  await tap(visitor, checkout.getByRole("button", { name: "Proceed to Payment" }));

  await expect(visitor).toHaveURL(/\/test-checkout\/[^/?]+$/);
  await expect(visitor.getByTestId("test-checkout-items")).toContainText(first);
  await expect(visitor.getByTestId("test-checkout-items")).toContainText(second);
  await expect(visitor.getByTestId("test-checkout-total")).toHaveText("$8.00");
  await tap(visitor, visitor.getByTestId("test-pay"));

  const complete = visitor.getByTestId("purchase-complete");
  await expect(complete).toContainText("Payment Successful!");
  const links = complete.getByTestId("download-link");
  await expect(links).toHaveCount(2);
  for (const link of await links.all()) {
    const download = await visitor.request.get((await link.getAttribute("href"))!);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toMatch(/^image\//);
  }
  await visitorContext.close();
});
