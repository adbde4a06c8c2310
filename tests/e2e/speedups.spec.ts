import type { Page } from "@playwright/test";
import {
  chooseUpload,
  expect,
  expectAccessible,
  PORTRAIT,
  signIn,
  tap,
  test,
  uploadPortrait,
} from "./fixtures";

/**
 * The creators' speed-ups in the browser, with JavaScript on and off: several
 * selfies in one upload, All four styles, and Re-roll, tapped as a finger does.
 */

const cards = (page: Page) => page.getByTestId("creation");

/**
 * Waits until the server has made every style (asked through the API, so it does not race the
 * page's own refresh without JavaScript), then opens the dashboard as the creator would.
 */
async function untilAllDone(page: Page) {
  await expect
    .poll(
      async () => {
        const styles = (await (await page.request.get("/api/token-stylized-images")).json()) as {
          status: string;
        }[];
        return styles.filter((style) => style.status === "pending" || style.status === "processing")
          .length;
      },
      { timeout: 90_000, intervals: [1_000] },
    )
    .toBe(0);
  await page.goto("/dashboard");
}

test.describe("creators' speed-ups", () => {
  test("uploads several selfies at once", async ({ page, javaScriptOn }) => {
    await signIn(page, "creator");
    await page.goto("/dashboard?step=upload");
    await expect(page.getByTestId("upload-widget")).toContainText("Up to 10 selfies at once");
    await chooseUpload(page, [PORTRAIT, "tests/fixtures/portrait-hopper.jpg"], javaScriptOn);
    await expect(page.getByTestId("toast")).toContainText("2 of 2 selfies uploaded.");
    await expect(page.getByTestId("upload-widget")).toHaveAttribute("data-state", "success");
  });

  test("All four styles, then Re-roll one, each card with its progress", async ({
    page,
    javaScriptOn,
  }) => {
    test.setTimeout(180_000);
    await signIn(page, "creator");
    await uploadPortrait(page, javaScriptOn);
    await expectAccessible(page, javaScriptOn);
    // The creator's styles so far, as the server counts them (the grid shows them all).
    const before = (
      (await (await page.request.get("/api/token-stylized-images")).json()) as unknown[]
    ).length;

    await tap(page, page.getByRole("button", { name: "All four styles" }));
    await expect(page).toHaveURL(/[?&]pending=/);
    await expect(cards(page)).toHaveCount(before + 4);
    // Each new card says how far it is until it is done.
    await expect(
      page
        .locator(
          '[data-testid="creation"][data-status="pending"], [data-testid="creation"][data-status="processing"]',
        )
        .first(),
    ).toContainText(/Waiting to start…|Generating…/);
    await untilAllDone(page);
    await expect(cards(page)).toHaveCount(before + 4);
    // The professional headshot is 4:5: its picture stays in the card's square, the grid row as tall as the others.
    const frames = await page
      .locator('[data-testid="creation"] > div:first-child')
      .evaluateAll((elements) =>
        elements.slice(0, 4).map((element) => {
          const box = element.getBoundingClientRect();
          return { width: Math.round(box.width), height: Math.round(box.height) };
        }),
      );
    expect(frames).toHaveLength(4);
    for (const frame of frames) expect(frame.height).toBe(frame.width);
    const heights = await cards(page).evaluateAll((elements) =>
      elements.slice(0, 4).map((element) => Math.round(element.getBoundingClientRect().height)),
    );
    expect(new Set(heights).size, `card heights ${heights.join(", ")}`).toBe(1);

    // Re-roll the newest card's style: a new card with a new seed beside it.
    const newest = cards(page).first();
    const id = await newest.getAttribute("data-id");
    const seed = await newest.getByTestId("creation-seed").textContent();
    await tap(page, newest.getByRole("button", { name: /^Re-roll/ }));
    await expect(page).toHaveURL(/[?&]pending=/);
    await untilAllDone(page);
    await expect(cards(page)).toHaveCount(before + 5);
    await expect(page.locator(`[data-testid="creation"][data-id="${id}"]`)).toHaveCount(1);
    const rerolled = cards(page).first();
    expect(await rerolled.getAttribute("data-id")).not.toBe(id);
    await expect(rerolled).toHaveAttribute("data-status", "completed");
    expect(await rerolled.getByTestId("creation-seed").textContent()).not.toBe(seed);
    await expectAccessible(page, javaScriptOn);
  });
});
