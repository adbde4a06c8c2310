import type { Page } from "@playwright/test";
import {
  captureScreen,
  chooseUpload,
  expect,
  expectAccessible,
  generateStyle,
  signIn,
  test,
  uploadPortrait,
} from "./fixtures";

/** The creation card of one stylized image in the dashboard's grid. */
function creation(page: Page, styledId: string) {
  return page.locator(`[data-testid="creation"][data-id="${styledId}"]`);
}

/** Asks for an image URL and checks that an image comes back. */
async function expectImageAt(page: Page, src: string | null, type?: string) {
  expect(src).toBeTruthy();
  const response = await page.request.get(src!);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(type ? new RegExp(`^${type}`) : /^image\//);
  expect((await response.body()).length).toBeGreaterThan(100);
}

test.describe("the creator studio", () => {
  test("the dashboard: pipeline, stat cards and links", async ({ page }) => {
    await signIn(page, "creator");
    await expect(page.getByRole("heading", { name: "Welcome, Dana" })).toBeVisible();
    await page.goto("/dashboard?step=upload");
    await expect(page.getByTestId("pipeline-position")).toHaveText("Step 1 of 4: Upload");
    const pipeline = page.getByRole("navigation", { name: "Pipeline" });
    for (const name of ["Upload", "Style", "Optimize", "Market"]) {
      await expect(pipeline.getByText(name, { exact: true })).toBeVisible();
    }
    for (const label of ["Total Images", "AI Styles", "Listed", "Earnings"]) {
      await expect(page.locator("dt", { hasText: label }).first()).toBeVisible();
    }
    await expect(page.getByRole("link", { name: "Manage Integrations" })).toHaveAttribute(
      "href",
      "/integrations",
    );
    await expect(page.getByRole("link", { name: "Back to Home" })).toBeVisible();
    await expect(page.getByTestId("upload-widget")).toHaveAttribute("data-state", "idle");
    await expect(page.getByTestId("upload-widget")).toContainText("JPG and PNG up to 10MB");
    await expect(page.getByTestId("image-grid")).toBeVisible();
  });

  test("upload, style, optimize with a preset, and delete", async ({ page, javaScriptOn }) => {
    // Styles and optimizes on the server's CPU: more than the default minute on a busy machine.
    test.setTimeout(120_000);
    await signIn(page, "creator");
    const imageId = await uploadPortrait(page, javaScriptOn);

    // Step 2: the style generator with the original and the four style cards.
    await expect(page.getByTestId("pipeline-position")).toHaveText("Step 2 of 4: Style");
    const generator = page.getByTestId("style-generator");
    await expect(generator.getByRole("img", { name: "Your original selfie" })).toBeVisible();
    for (const [name, earn, demand] of [
      ["Professional", "$50-150", "High"],
      ["Cartoon", "$25-75", "Very High"],
      ["Anime", "$30-100", "High"],
      ["Fantasy", "$40-120", "Medium"],
    ]) {
      const card = generator.locator("label").filter({ hasText: name });
      await expect(card).toContainText(`Earn ${earn}`);
      await expect(card).toContainText(`${demand} demand`);
    }
    await expect(generator.getByRole("heading", { name: "Pro tips" })).toBeVisible();
    // The upload is in the strip of originals, marked as the one being styled.
    const current = page.getByTestId("uploads-strip").locator('a[aria-current="true"]');
    await expect(current).toHaveCount(1);
    await expect(current).toHaveAttribute("href", new RegExp(`image=${imageId}`));

    const styledId = await generateStyle(page, "professional", javaScriptOn);
    await expect(page.getByTestId("toast")).toContainText(
      "Your Professional transformation is complete.",
    );

    // Step 3: the optimization panel; the new image is in the grid, completed.
    await expect(page.getByTestId("pipeline-position")).toHaveText("Step 3 of 4: Optimize");
    const card = creation(page, styledId);
    await expect(card).toHaveAttribute("data-status", "completed");
    await expectImageAt(page, await card.locator("img").getAttribute("src"));
    const panel = page.getByTestId("optimization-panel");
    await expect(panel.getByTestId("quality-readout")).toHaveText("85% · Good");
    await expect(panel.getByText("Not optimized yet.")).toBeVisible();
    await expect(panel.getByRole("link", { name: "Market Now" })).toBeVisible();

    await expectAccessible(page, javaScriptOn);
    await captureScreen(page, "dashboard", javaScriptOn);

    // The Web preset: quality 75, WebP, 1200 × 1200 (a GET form without JavaScript).
    await panel.getByRole("button", { name: "Web", exact: true }).click();
    await expect(panel.getByRole("button", { name: "Web", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(panel.getByTestId("quality-readout")).toHaveText("75% · Good");
    await expect(panel.getByLabel("Format")).toHaveValue("webp");
    await expect(panel.getByLabel("Resolution")).toHaveValue("1200x1200");
    await panel.getByRole("button", { name: "Optimize Image" }).click();
    await expect(page.getByTestId("toast")).toContainText("Image optimized successfully");

    // Step 4: market; the optimized image is served.
    await expect(page).toHaveURL(new RegExp(`styled=${styledId}.*step=market`));
    await expect(page.getByTestId("pipeline-position")).toHaveText("Step 4 of 4: Market");
    const market = page.getByTestId("market-step");
    await expect(market).toContainText("Optimized as WEBP at quality 75.");
    const optimizedSrc = await market
      .getByRole("img", { name: "Your Professional image" })
      .getAttribute("src");
    await expectImageAt(page, optimizedSrc, "image/webp");
    if (javaScriptOn) {
      // It loaded in the page (fitted inside 1200 × 1200, never enlarged).
      const width = () =>
        market
          .getByRole("img", { name: "Your Professional image" })
          .evaluate((img: HTMLImageElement) => img.naturalWidth);
      await expect.poll(width).toBeGreaterThan(0);
      expect(await width()).toBeLessThanOrEqual(1200);
    }
    await expect(creation(page, styledId)).toContainText("Optimized");
    await expect(creation(page, styledId).locator("img")).toHaveAttribute("src", optimizedSrc!);

    // Back on the optimize step, the panel says what was made.
    await page.getByRole("link", { name: "Back to Optimize" }).click();
    await expect(page.getByTestId("optimized-summary")).toHaveText(
      /^Optimized: WEBP · quality 75 · \d+ × \d+ px · \d+ KB$/,
    );

    // Delete it from the grid: a button opening a dialog with JavaScript, a link to ?confirmDelete= without; both ask first.
    await creation(page, styledId).getByLabel("Delete the Professional image").click();
    const confirmation = page.getByTestId("delete-confirmation");
    await expect(confirmation).toContainText("Delete this Professional image?");
    await confirmation.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(page.getByTestId("toast")).toContainText("Image Deleted");
    await expect(creation(page, styledId)).toHaveCount(0);
    // Its files are gone too.
    expect((await page.request.get(optimizedSrc!)).status()).toBeGreaterThanOrEqual(400);

    // The other three styles of the same upload: all four come from the local engine.
    for (const [style, name] of [
      ["cartoon", "Cartoon"],
      ["anime", "Anime"],
      ["fantasy", "Fantasy"],
    ] as const) {
      await page.goto(`/dashboard?image=${imageId}&step=style`);
      const id = await generateStyle(page, style, javaScriptOn);
      await expect(page.getByTestId("toast")).toContainText(
        `Your ${name} transformation is complete.`,
      );
      await expect(creation(page, id)).toHaveAttribute("data-status", "completed");
      const answer = await (await page.request.get(`/api/token-stylized-images/${id}`)).json();
      expect(answer).toMatchObject({ style, status: "completed", provider: "local" });
      await expectImageAt(page, answer.styledUrl);
    }
  });

  test("bad files are refused with their messages", async ({ page, javaScriptOn }) => {
    await signIn(page, "creator");
    await page.goto("/dashboard?step=upload");
    const widget = page.getByTestId("upload-widget");

    // Too large: 11 MB (the size is checked first, so the type does not matter).
    await chooseUpload(
      page,
      { name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(11 * 1024 * 1024, 1) },
      javaScriptOn,
    );
    await expect(page.getByTestId("toast")).toContainText("File Too Large");
    await expect(page.getByTestId("toast")).toContainText(
      "Please select a file smaller than 10MB.",
    );
    if (javaScriptOn) {
      await expect(widget).toHaveAttribute("data-state", "error");
      await expect(widget.getByRole("alert")).toContainText("File Too Large");
    }

    // A text file that calls itself a PNG: the server reads the bytes and refuses it.
    await chooseUpload(
      page,
      {
        name: "bad.png",
        mimeType: "image/png",
        buffer: Buffer.from("this is not a picture\n".repeat(20)),
      },
      javaScriptOn,
    );
    await expect(page.getByTestId("toast")).toContainText("Invalid File Type");
    await expect(page.getByTestId("toast")).toContainText(
      "Please select a valid image file (JPG or PNG).",
    );
    if (javaScriptOn) await expect(widget.getByRole("alert")).toContainText("Invalid File Type");

    // A file whose type is not an image at all (with JavaScript the widget refuses it before sending).
    if (javaScriptOn) {
      await page.getByTestId("toast").getByRole("button", { name: "Dismiss" }).click();
      await expect(page.getByTestId("toast")).toHaveCount(0);
    }
    await chooseUpload(
      page,
      { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") },
      javaScriptOn,
    );
    await expect(page.getByTestId("toast")).toContainText("Invalid File Type");
    if (javaScriptOn) await expect(widget).toHaveAttribute("data-state", "error");
    await expect(page.getByTestId("pipeline-position")).toHaveText("Step 1 of 4: Upload");
  });
});
