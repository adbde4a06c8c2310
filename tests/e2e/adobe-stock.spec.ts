import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { E2E_SFTP } from "../../playwright.config";
import type { Page } from "@playwright/test";
import ExifReader from "exifreader";
import {
  disconnectIntegration,
  expect,
  expectAccessible,
  makeStyledImage,
  signIn,
  stylizeAndWait,
  tap,
  test,
} from "./fixtures";

/** A 5.8 MP upload (2400×2400 JPEG) styled as a cartoon, which keeps the upload's size: big enough for Adobe Stock. */
async function makeLargeStyledImage(page: Page): Promise<string> {
  const buffer = await sharp(fs.readFileSync("tests/fixtures/portrait.png"))
    .resize(2400, 2400)
    .jpeg({ quality: 90 })
    .toBuffer();
  const upload = await page.request.post("/api/token-images/upload", {
    multipart: { image: { name: "big-portrait.jpg", mimeType: "image/jpeg", buffer } },
  });
  expect(upload.status()).toBe(201);
  const image = await upload.json();
  return stylizeAndWait(page, image.id, "cartoon", 90_000);
}

/** Launches the image on Adobe Stock from the dashboard's launch form; answers the result's Adobe Stock row. */
async function launchOnAdobe(page: Page, styledId: string, title: string) {
  await page.goto(`/dashboard?styled=${styledId}&step=market&panel=launch`);
  const launch = page.getByTestId("launch-form");
  await launch.getByLabel("Title").fill(title);
  await launch.getByLabel("Price (USD)").fill("45");
  await launch.getByLabel("Tags").fill("portrait, studio, headshot, AI art");
  await launch.getByRole("checkbox", { name: /Adobe Stock/ }).check();
  await launch.getByRole("button", { name: "Launch Marketing" }).click();
  const result = page.getByTestId("launch-result");
  await expect(result).toBeVisible({ timeout: 30_000 });
  return result.getByTestId("publication-adobestock");
}

/**
 * Adobe Stock over SFTP, end to end: the creator saves the contributor
 * account's SFTP username and generated password on /integrations (the server
 * signs in to check them), launches a large styled image there from the
 * dashboard and is refused until the image has a model release, signs one on
 * the release page (typed, and drawn with JavaScript), launches again, and
 * the SFTP server started for this run (standing in for Adobe's, see
 * playwright.config.ts) holds a JPEG at the size the engine made with one
 * title and no AI keyword; the listing says Submitted, never Live. A 512 px
 * image is refused with the size its upload needs.
 */
test("a creator connects Adobe Stock over SFTP and submits an image to it", async ({
  page,
  javaScriptOn,
}) => {
  test.setTimeout(240_000);
  await signIn(page, "creator");

  await page.goto("/integrations");
  const card = page.getByTestId("integration-card-adobestock");
  const form = card.getByTestId("manual-setup-adobestock");
  if (!(await form.isVisible())) await card.locator("summary").click();

  // A wrong password is refused, with nothing saved.
  await form.getByLabel("SFTP username").fill(E2E_SFTP.username);
  await form.getByLabel("SFTP password").fill("not-the-password");
  await form.getByRole("button", { name: "Save connection" }).click();
  await expect(page.getByText(/refused this SFTP username or password/).first()).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByTestId("integration-card-adobestock")).toHaveAttribute(
    "data-connected",
    "false",
  );

  const retry = page
    .getByTestId("integration-card-adobestock")
    .getByTestId("manual-setup-adobestock");
  if (!(await retry.isVisible()))
    await page.getByTestId("integration-card-adobestock").locator("summary").click();
  await retry.getByLabel("SFTP username").fill(E2E_SFTP.username);
  await retry.getByLabel("SFTP password").fill(E2E_SFTP.password);
  await retry.getByRole("button", { name: "Save connection" }).click();
  await expect(page.getByTestId("toast")).toContainText("Integration created successfully.", {
    timeout: 20_000,
  });
  await expect(page.getByTestId("integration-card-adobestock")).toHaveAttribute(
    "data-connected",
    "true",
  );
  expect(await page.content()).not.toContain(E2E_SFTP.password);
  await expectAccessible(page, javaScriptOn);

  // An image big enough for Adobe, launched without a model release: refused with its sentence, nothing sent.
  const styledId = await makeLargeStyledImage(page);
  const refusedRow = await launchOnAdobe(
    page,
    styledId,
    `Portrait without a release ${javaScriptOn ? "js" : "nojs"}`,
  );
  await expect(refusedRow).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
  await expect(refusedRow).toContainText("Adobe Stock needs a signed model release for this image");

  // The release step: from the row's link, sign for yourself (typed; drawn too with JavaScript).
  await tap(page, refusedRow.getByRole("link", { name: "Add a model release" }));
  await expect(page).toHaveURL(new RegExp(`/studio/release\\?image=${styledId}`));
  await expect(page.getByTestId("adobe-release-steps")).toContainText(
    "Recognizable people or property?",
  );
  const sign = page.getByTestId("model-release-sign");
  await sign.getByLabel("Your full name (the person shown)").fill("Casey Creator");
  await sign.getByLabel("Date of birth").fill("1990-05-01");
  await sign.getByLabel("Postal address").fill("12 Example Street, Manchester M1 1AA");
  await sign.getByLabel("Phone").fill("+44 161 496 0000");
  await sign.getByLabel("Date the photo was taken").fill("2024-05-01");
  await sign.getByLabel("Signature: type your name again").fill("Casey Creator");
  if (javaScriptOn) {
    const pad = page.getByTestId("drawn-signature");
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + 20, { steps: 8 });
    await page.mouse.move(box.x + box.width - 20, box.y + box.height - 20, { steps: 8 });
    await page.mouse.up();
    await expect(sign.locator('input[name="drawnSignature"]')).toHaveValue(
      /^data:image\/png;base64,/,
    );
  }
  // A self-portrait: the creator took it, so they sign as the photographer too (ticked by default).
  await expect(sign.getByRole("checkbox", { name: /I took this photo myself/ })).toBeChecked();
  await sign.getByRole("checkbox", { name: /I am the person shown in this/ }).check();
  await sign.getByRole("button", { name: "Sign the model release" }).click();
  const current = page.getByTestId("model-release-current");
  await expect(current).toContainText("Signed here by Casey Creator", { timeout: 20_000 });
  if (javaScriptOn) await expect(current).toContainText("typed and drawn signature");
  await expectAccessible(page, javaScriptOn);
  const pdfHref = await current.getByTestId("model-release-download").getAttribute("href");
  const pdf = await page.request.get(pdfHref!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");

  // With the release, the same launch is submitted, and the row links to the release.
  const title = `Studio portrait ${javaScriptOn ? "js" : "nojs"} ${Date.now()}`;
  const row = await launchOnAdobe(page, styledId, title);
  await expect(row).toHaveAttribute("data-status", "submitted", { timeout: 90_000 });
  await expect(row).toContainText("Submitted");
  await expect(row.getByRole("link", { name: "Model release (PDF)" })).toHaveAttribute(
    "href",
    pdfHref!,
  );

  // The SFTP server holds the file Adobe reads, and a third-party reader finds it as Adobe wants it.
  const uploads = fs.readdirSync(E2E_SFTP.root).filter((name) => name.endsWith(".jpg"));
  const bytes = await (async () => {
    for (const name of uploads) {
      const file = fs.readFileSync(path.join(E2E_SFTP.root, name));
      const xmp = (await sharp(file).metadata()).xmp?.toString("utf8") ?? "";
      if (xmp.includes(title)) return file;
    }
    throw new Error(`No upload carries the title "${title}" (files: ${uploads.join(", ")})`);
  })();
  const tags = ExifReader.load(bytes, { expanded: true });
  expect(tags.file?.FileType?.value).toBe("jpeg");
  expect([tags.file?.["Image Width"]?.value, tags.file?.["Image Height"]?.value]).toEqual([
    2400, 2400,
  ]);
  expect(tags.icc?.["ICC Description"]?.value).toMatch(/sRGB/);
  expect(tags.iptc?.["Object Name"]?.description).toBe(title);
  expect(tags.xmp?.Headline?.description).toBe(title);
  const keywords = ((tags.xmp?.subject?.value as Array<{ description: string }>) ?? []).map(
    (keyword) => keyword.description,
  );
  expect(keywords).toEqual(expect.arrayContaining(["portrait", "studio", "headshot"]));
  expect(keywords.filter((keyword) => /\bai\b|generative/i.test(keyword))).toEqual([]);
  expect(tags.xmp?.DigitalSourceType?.description).toMatch(
    /^http:\/\/cv\.iptc\.org\/newscodes\/digitalsourcetype\/\w+$/,
  );

  // A small image (the 512 px fixture) with a release is refused with the size its upload needs.
  const smallId = await makeStyledImage(page, "cartoon");
  const signed = await page.request.post(`/api/token-stylized-images/${smallId}/model-release`, {
    data: {
      dateOfBirth: "1990-05-01",
      address: "12 Example Street, Manchester M1 1AA",
      email: "casey@example.com",
      phone: "+44 161 496 0000",
      shootDate: "2024-05-01",
      selfTaken: true,
      modelName: "Casey Creator",
      signedOn: new Date().toISOString().slice(0, 10),
      signature: "Casey Creator",
      confirm: true,
    },
  });
  expect(signed.status()).toBe(201);
  const small = await page.request.post("/api/marketplace/post", {
    data: {
      imageId: smallId,
      title: "Small portrait",
      description: "A portrait.",
      price: 30,
      platforms: ["adobestock"],
    },
  });
  const smallAnswer = await small.json();
  expect(smallAnswer.results[0].success).toBe(false);
  expect(smallAnswer.results[0].error).toContain("Upload a photo of at least 2000 × 2000 px");

  // Disconnect again so the next project starts from scratch.
  await disconnectIntegration(page, "adobestock");
});
