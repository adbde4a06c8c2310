import {
  captureScreen,
  disconnectIntegration,
  expect,
  expectAccessible,
  makeStyledImage,
  signIn,
  test,
} from "./fixtures";

const WALLET = "0x" + "ab12".repeat(10);

test("a creator connects OpenSea by key and launches to the marketplace, OpenSea and EyeEm", async ({
  page,
  javaScriptOn,
}) => {
  // Styles an image and publishes it to three platforms: more than the default minute on a busy machine.
  test.setTimeout(120_000);
  await signIn(page, "creator");

  // Connect OpenSea with an API key and a wallet address.
  await page.goto("/integrations");
  await expectAccessible(page, javaScriptOn);
  const card = page.getByTestId("integration-card-opensea");
  const form = card.getByTestId("manual-setup-opensea");
  if (!(await form.isVisible())) await card.locator("summary").click();
  await form.getByLabel("API key").fill("opensea-test-key-123456");
  await form.getByLabel("Wallet address").fill(WALLET);
  await form.getByRole("button", { name: "Save connection" }).click();
  await expect(page.getByTestId("toast")).toContainText("Integration created successfully.");
  await expect(page.getByTestId("integration-card-opensea")).toHaveAttribute(
    "data-connected",
    "true",
  );
  // The key never comes back to the browser.
  expect(await page.content()).not.toContain("opensea-test-key-123456");
  await captureScreen(page, "integrations", javaScriptOn);

  // Launch one image.
  const styledId = await makeStyledImage(page, "fantasy");
  await page.goto(`/dashboard?styled=${styledId}&step=market&panel=launch`);
  const launch = page.getByTestId("launch-form");
  const title = `Launch ${javaScriptOn ? "js" : "nojs"} ${Date.now()}`;
  await launch.getByLabel("Title").fill(title);
  await launch.getByLabel("Price (USD)").fill("40");
  await launch.getByLabel("Tags").fill("portrait, fantasy, , space");
  for (const name of [/OpenSea/, /EyeEm/]) await launch.getByRole("checkbox", { name }).check();
  await expect(launch.getByRole("checkbox", { name: /Selfie Studio/ })).toBeChecked();
  await expectAccessible(page, javaScriptOn);
  await captureScreen(page, "dashboard-launch", javaScriptOn);
  await launch.getByRole("button", { name: "Launch Marketing" }).click();

  const result = page.getByTestId("launch-result");
  await expect(result).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("toast")).toContainText("Marketing campaign launched!");
  await expect(result.getByTestId("publication-marketplace")).toHaveAttribute(
    "data-status",
    "live",
    { timeout: 30_000 },
  );
  await expect(result.getByTestId("publication-opensea")).toHaveAttribute(
    "data-status",
    "ready_to_mint",
    { timeout: 30_000 },
  );
  await expect(result.getByTestId("publication-eyeem")).toHaveAttribute(
    "data-status",
    "export_ready",
    { timeout: 30_000 },
  );
  await expect(result.getByTestId("platforms-launched")).toHaveText("3 of 3");

  // Every link works: the live listing, the mint kit and the export package.
  const listing = await result
    .getByTestId("publication-marketplace")
    .getByRole("link", { name: "View listing" })
    .getAttribute("href");
  const listingPage = await page.request.get(listing!);
  expect(listingPage.status()).toBe(200);
  expect(await listingPage.text()).toContain(title);
  for (const [platform, name] of [
    ["opensea", "Download mint kit"],
    ["eyeem", "Download export package"],
  ] as const) {
    const href = await result
      .getByTestId(`publication-${platform}`)
      .getByRole("link", { name })
      .getAttribute("href");
    const download = await page.request.get(href!);
    expect(download.status(), platform).toBe(200);
    expect(download.headers()["content-type"]).toBe("application/zip");
    expect((await download.body()).subarray(0, 2).toString()).toBe("PK");
  }
  await captureScreen(page, "launch-result", javaScriptOn);

  // Nothing says live where it is not.
  const statuses = await result
    .locator("[data-testid^='publication-'][data-status]")
    .evaluateAll((rows) =>
      rows.map((row) => [row.getAttribute("data-testid"), row.getAttribute("data-status")]),
    );
  for (const [id, status] of statuses) {
    if (status === "live") expect(id).toBe("publication-marketplace");
  }

  // Disconnect again so the next project starts from scratch.
  await disconnectIntegration(page, "opensea");
});
