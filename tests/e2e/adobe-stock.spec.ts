import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { E2E_SFTP } from "../../playwright.config";
import { expect, expectAccessible, makeStyledImage, signIn, test } from "./fixtures";

/**
 * Adobe Stock over SFTP, end to end: the creator saves the contributor
 * account's SFTP username and generated password on /integrations (the server
 * signs in to check them), lists a styled image there from the dashboard,
 * and the SFTP server started for this run (standing in for Adobe's, see
 * playwright.config.ts) holds a JPEG of at least 4 megapixels with the title,
 * keywords and AI disclosure embedded; the listing says Submitted, never Live.
 */
test("a creator connects Adobe Stock over SFTP and submits an image to it", async ({ page, javaScriptOn }) => {
  test.setTimeout(150_000);
  await signIn(page, "creator");

  await page.goto("/integrations");
  const card = page.getByTestId("integration-card-adobestock");
  const form = card.getByTestId("manual-setup-adobestock");
  if (!(await form.isVisible())) await card.locator("summary").click();

  // A wrong password is refused, with nothing saved.
  await form.getByLabel("SFTP username").fill(E2E_SFTP.username);
  await form.getByLabel("SFTP password").fill("not-the-password");
  await form.getByRole("button", { name: "Save connection" }).click();
  await expect(page.getByText(/refused this SFTP username or password/).first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("integration-card-adobestock")).toHaveAttribute("data-connected", "false");

  const retry = page.getByTestId("integration-card-adobestock").getByTestId("manual-setup-adobestock");
  if (!(await retry.isVisible())) await page.getByTestId("integration-card-adobestock").locator("summary").click();
  await retry.getByLabel("SFTP username").fill(E2E_SFTP.username);
  await retry.getByLabel("SFTP password").fill(E2E_SFTP.password);
  await retry.getByRole("button", { name: "Save connection" }).click();
  await expect(page.getByTestId("toast")).toContainText("Integration created successfully.", { timeout: 20_000 });
  await expect(page.getByTestId("integration-card-adobestock")).toHaveAttribute("data-connected", "true");
  expect(await page.content()).not.toContain(E2E_SFTP.password);
  await expectAccessible(page, javaScriptOn);

  // List one image there (and on the product's own marketplace).
  const styledId = await makeStyledImage(page, "professional");
  await page.goto(`/dashboard?styled=${styledId}&step=market&panel=launch`);
  const launch = page.getByTestId("launch-form");
  const title = `Studio portrait ${javaScriptOn ? "js" : "nojs"} ${Date.now()}`;
  await launch.getByLabel("Title").fill(title);
  await launch.getByLabel("Price (USD)").fill("45");
  await launch.getByLabel("Tags").fill("portrait, studio, headshot");
  await launch.getByRole("checkbox", { name: /Adobe Stock/ }).check();
  await launch.getByRole("button", { name: "Launch Marketing" }).click();

  const result = page.getByTestId("launch-result");
  await expect(result).toBeVisible({ timeout: 30_000 });
  const row = result.getByTestId("publication-adobestock");
  await expect(row).toHaveAttribute("data-status", "submitted", { timeout: 90_000 });
  await expect(row).toContainText("Submitted");

  // The SFTP server holds the file Adobe reads.
  const uploads = fs.readdirSync(E2E_SFTP.root).filter((name) => name.endsWith(".jpg"));
  const bytes = await (async () => {
    for (const name of uploads) {
      const file = fs.readFileSync(path.join(E2E_SFTP.root, name));
      const xmp = (await sharp(file).metadata()).xmp?.toString("utf8") ?? "";
      if (xmp.includes(title)) return file;
    }
    throw new Error(`No upload carries the title "${title}" (files: ${uploads.join(", ")})`);
  })();
  const meta = await sharp(bytes).metadata();
  expect(meta.format).toBe("jpeg");
  expect(meta.space).toBe("srgb");
  expect(meta.width! * meta.height!).toBeGreaterThanOrEqual(4_000_000);
  const xmp = meta.xmp!.toString("utf8");
  expect(xmp).toContain(`<rdf:li xml:lang="x-default">${title}</rdf:li>`);
  for (const keyword of ["portrait", "studio", "headshot"]) expect(xmp.toLowerCase()).toContain(`<rdf:li>${keyword}</rdf:li>`);
  expect(xmp).toMatch(/Iptc4xmpExt:DigitalSourceType="http:\/\/cv\.iptc\.org\/newscodes\/digitalsourcetype\/\w+"/);
  expect(meta.iptc, "IPTC IIM as well").toBeDefined();

  // Disconnect again so the next project starts from scratch.
  await page.goto("/integrations");
  await page.getByTestId("integration-card-adobestock").getByRole("button", { name: "Disconnect" }).click();
  await expect(page.getByTestId("integration-card-adobestock")).toHaveAttribute("data-connected", "false");
});
