import type { Page } from "@playwright/test";
import { ACCOUNTS, createAccount, expect, makeStyledImage, signIn, test } from "./fixtures";

/**
 * No word and no amount is broken across two lines, on a phone's narrowest
 * screen (320 px), a common phone (390 px) and a laptop (1366 px), on every
 * page a visitor, a creator, a creator with a 60-character name and the admin
 * reach. A word is a run of characters between spaces and hyphens shorter than
 * 20 characters (longer runs, such as addresses, may wrap anywhere; identifiers
 * set to break-all are not words); it is
 * broken when its rendered boxes sit on more than one line. Long names
 * truncate with an ellipsis instead, and keep their whole text in a title;
 * nothing makes a page wider than the screen.
 */

const WIDTHS = [320, 390, 1366];

const PUBLIC_PAGES = [
  "/",
  "/marketplace",
  "/pricing",
  "/help",
  "/creator-guide",
  "/terms",
  "/privacy",
  "/license",
  "/contact",
  "/cart",
  "/saved",
  "/training",
  "/auth",
  "/auth?tab=register",
];

const CREATOR_PAGES = [
  "/dashboard",
  "/dashboard?step=upload",
  "/listings",
  "/analytics",
  "/payouts",
  "/integrations",
  "/settings",
  "/settings/export",
  "/settings/security",
  "/settings/privacy",
];

/** The words of the page's visible text that its layout splits across lines ("Anim|e on 1 of 2 lines"). */
async function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const skip = new Set([
      "SCRIPT",
      "STYLE",
      "NOSCRIPT",
      "TEMPLATE",
      "OPTION",
      "TITLE",
      "TEXTAREA",
    ]);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || skip.has(parent.tagName)) continue;
      // Identifiers (ids, keys, references) are set to break anywhere on purpose: they are not words.
      if (getComputedStyle(parent).wordBreak === "break-all") continue;
      const text = (node as Text).data;
      // Words end at spaces, after hyphens and slashes, and between ")(" (as in "Art. 6(1)(c)"), where lines may break.
      for (const match of text.matchAll(/(?:[^\s\u00ad\-–—/(]|(?<!\))\()+/gu)) {
        const word = match[0];
        if ([...word].length >= 20 || [...word].length < 2) continue;
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + word.length);
        const boxes = [...range.getClientRects()].filter((box) => box.width > 0 && box.height > 0);
        if (boxes.length < 2) continue;
        const tops = boxes.map((box) => box.top);
        const lineHeight = Math.min(...boxes.map((box) => box.height));
        if (Math.max(...tops) - Math.min(...tops) > lineHeight / 2) {
          const tested = parent.closest("[data-testid]")?.getAttribute("data-testid");
          const element = `<${parent.tagName.toLowerCase()} class="${parent.className}">`;
          found.push(`"${word}" in ${element}${tested ? ` in ${tested}` : ""}`);
        }
      }
    }
    return [...new Set(found)];
  });
}

/** Visits each page at each width and fails once, naming every broken word of every page. */
async function expectNoBrokenWords(page: Page, paths: string[]) {
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of paths) {
      await page.goto(path);
      for (const word of await brokenWords(page)) problems.push(`${path} at ${width} px: ${word}`);
      const pageWidth = await page.evaluate(() =>
        Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
      );
      if (pageWidth > width) problems.push(`${path} at ${width} px is ${pageWidth} px wide`);
    }
  }
  expect(problems).toEqual([]);
}

/** A listing page and its creator's storefront, from the marketplace's first card. */
async function marketplacePages(page: Page): Promise<string[]> {
  await page.goto("/marketplace");
  const listing = await page.locator("a[href^='/marketplace/']").first().getAttribute("href");
  expect(listing).toBeTruthy();
  await page.goto(listing!);
  const storefronts = await page
    .locator("a[href^='/creators/']")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href")!));
  return [listing!, ...storefronts.slice(0, 1)];
}

test("no word breaks on the public pages", async ({ page }) => {
  test.setTimeout(600_000);
  await expectNoBrokenWords(page, [...PUBLIC_PAGES, ...(await marketplacePages(page))]);
});

test("no word breaks in the creator's studio", async ({ page }) => {
  test.setTimeout(600_000);
  await signIn(page, "creator");
  const styledId = await makeStyledImage(page, "anime");
  await expectNoBrokenWords(page, [
    ...CREATOR_PAGES,
    `/dashboard?styled=${styledId}&step=optimize`,
    `/dashboard?styled=${styledId}&step=market&panel=sell`,
    `/dashboard?styled=${styledId}&step=market&panel=launch`,
  ]);
});

test("a 60-character name truncates and breaks nothing, for the creator and in the admin's table", async ({
  page,
  request,
  javaScriptOn,
}) => {
  test.setTimeout(600_000);
  const firstName = `Maximiliana${"x".repeat(49)}`;
  const account = {
    email: `long-name-${javaScriptOn ? "js" : "nojs"}-${Date.now().toString(36)}@e2e.test`,
    password: "long-name-password",
    firstName,
    lastName: "Wolfeschlegelsteinhausenbergerdorff",
  };
  await createAccount(request, account);
  await signIn(page, account);
  await expectNoBrokenWords(page, ["/dashboard", "/settings"]);
  // The header's name is cut with an ellipsis and keeps the whole of it in its title; Sign Out stays one line.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/dashboard");
  const name = page.getByTestId("nav-user").first().locator("bdi[title]");
  await expect(name).toHaveAttribute("title", firstName);
  const signOut = page.getByRole("button", { name: "Sign Out" }).first();
  const box = await signOut.boundingBox();
  expect(box!.width).toBeGreaterThan(40);

  await page.context().clearCookies();
  await signIn(page, ACCOUNTS.admin);
  await expectNoBrokenWords(page, ["/admin"]);
});
