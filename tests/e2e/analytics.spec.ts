import type { Page } from "@playwright/test";
import { captureScreen, expect, expectAccessible, runTag, signIn, test } from "./fixtures";

interface Day {
  date: string;
  views: number;
  addsToCart: number;
  saves: number;
  sales: number;
  earnings: string;
  testSales: number;
}

/** The signed-in creator's numbers for today (UTC) and for one listing, from the API. */
async function todayOf(page: Page, listingId: string) {
  const response = await page.request.get("/api/token-analytics?days=7");
  expect(response.status()).toBe(200);
  const body = (await response.json()) as {
    days: Day[];
    listings: { listingId: string; views: number; saves: number; sales: number }[];
    followers: { confirmed: number; newInRange: number };
  };
  expect(body.days).toHaveLength(7);
  const today = body.days[body.days.length - 1]!;
  expect(today.date).toBe(new Date().toISOString().slice(0, 10));
  expect(body.followers.confirmed).toBeGreaterThanOrEqual(body.followers.newInRange);
  return { today, listing: body.listings.find((listing) => listing.listingId === listingId) };
}

test.describe("a creator's analytics", () => {
  test("show a visitor's view, save, add-to-cart and purchase on today's column of the chart and in the tables, and the sales CSV downloads", async ({
    browser,
    page,
    request,
    javaScriptOn,
  }) => {
    test.setTimeout(120_000);
    const tag = runTag(javaScriptOn);

    // The demo creator's numbers before (one of the listings the seed put on the marketplace).
    await signIn(page, "creator");
    await page.goto("/marketplace");
    const demoCard = page.getByTestId("listing-card").filter({ hasText: "by Dana" }).first();
    const listingId = (await demoCard
      .locator("[id^='listing-']")
      .first()
      .getAttribute("id"))!.slice("listing-".length);
    const before = await todayOf(page, listingId);

    // A visitor (a browser at an address of its own, so a new visitor today) sees the listing, adds it to the
    // cart and buys it. The server believes one proxy in front (TRUST_PROXY=1), so the address is this header's.
    const visitor = await browser.newContext({
      javaScriptEnabled: javaScriptOn,
      userAgent: `Analytics visitor ${tag}`,
      extraHTTPHeaders: {
        "X-Forwarded-For": `198.51.100.${javaScriptOn ? 1 : 2}${Date.now() % 10}`,
      },
    });
    const shopper = await visitor.newPage();
    await shopper.goto("/marketplace");
    const card = shopper.locator(`[data-testid='listing-card']:has([id='listing-${listingId}'])`);
    // Saved for later (a fetcher with JavaScript, a form post and a redirect without): a save the creator sees counted.
    const saved = shopper.waitForResponse(
      (response) =>
        response.request().method() === "POST" && new URL(response.url()).pathname === "/saved",
    );
    await card.getByTestId("save-listing").click();
    await saved;
    await expect(card.getByTestId("unsave-listing")).toBeVisible();
    // The count shows at once (optimistic): wait for the server's answer, which carries the cart's cookie, before leaving the page.
    const added = shopper.waitForResponse(
      (response) =>
        response.request().method() === "POST" && new URL(response.url()).pathname === "/cart",
    );
    await card.getByTestId("add-to-cart").click();
    await added;
    await expect(shopper.getByTestId("header-cart-count")).toHaveText("1");
    await shopper.goto("/cart");
    const checkout = shopper.getByTestId("checkout-form");
    await checkout.getByLabel("Name").fill("Ana Lytics");
    await checkout.getByLabel("Email").fill(`ana-${tag}@example.com`);
    await checkout.getByRole("button", { name: "Proceed to Payment" }).click();
    await expect(shopper).toHaveURL(/\/test-checkout\/[^/?]+$/);
    await shopper.getByTestId("test-pay").click();
    await expect(shopper.getByTestId("purchase-complete")).toContainText("Payment Successful!");
    await visitor.close();

    // The same counts on the API: one more view, add-to-cart and sale today. This server runs in
    // production with the test checkout allowed, so the sale is a test sale: counted apart, no earnings.
    // Views are written in batches (every 10 s): wait for this one.
    await expect
      .poll(async () => (await todayOf(page, listingId)).listing?.views ?? 0, { timeout: 30_000 })
      .toBeGreaterThan(before.listing?.views ?? 0);
    const after = await todayOf(page, listingId);
    // The marketplace showed the visitor every listing of the creator's on its page: each counts one view.
    expect(after.today.views - before.today.views).toBeGreaterThanOrEqual(1);
    expect(after.today.addsToCart - before.today.addsToCart).toBe(1);
    expect(after.today.saves - before.today.saves).toBe(1);
    expect(after.listing!.saves - (before.listing?.saves ?? 0)).toBe(1);
    expect(after.today.testSales - before.today.testSales).toBe(1);
    expect([after.today.sales, after.today.earnings]).toEqual([
      before.today.sales,
      before.today.earnings,
    ]);
    expect(after.listing!.views - (before.listing?.views ?? 0)).toBe(1);

    // The dashboard links to the page; the range is a link.
    await page.goto("/dashboard");
    await page.getByRole("link", { name: "View Analytics" }).click();
    await expect(page).toHaveURL(/\/analytics$/);
    await expect(page.getByRole("heading", { name: "Analytics", level: 1 })).toBeVisible();
    await page
      .getByRole("navigation", { name: "Range" })
      .getByRole("link", { name: "7 days" })
      .click();
    await expect(page).toHaveURL(/[?&]days=7\b/);
    await expect(page.getByRole("link", { name: "7 days" })).toHaveAttribute(
      "aria-current",
      "page",
    );

    // The chart the server drew: an image with a name, and today's test-sale column standing.
    const today = after.today.date;
    const chart = page.getByRole("img", {
      name: /^Views, add-to-carts and sales per day over the last 7 days/,
    });
    await expect(chart).toBeVisible();
    await expect(chart).toHaveAttribute(
      "aria-label",
      new RegExp(`${after.today.testSales > 0 ? "test sale" : "sale"}`),
    );
    const column = page.locator(
      `[data-testid='activity-chart'] g[data-date='${today}'] rect[data-series='testSales']`,
    );
    await expect(column).toHaveAttribute("data-value", String(after.today.testSales));
    expect(Number(await column.getAttribute("height"))).toBeGreaterThan(0);
    await expect(
      page.locator(
        `[data-testid='activity-chart'] g[data-date='${today}'] rect[data-series='views']`,
      ),
    ).toHaveAttribute("data-value", String(after.today.views));

    // The same numbers in the table beside it.
    const row = page.getByTestId("analytics-days").locator(`tr[data-date='${today}']`);
    const cells = row.locator("td");
    await expect(cells.nth(0)).toHaveText(String(after.today.views));
    await expect(cells.nth(1)).toHaveText(String(after.today.addsToCart));
    await expect(cells.nth(2)).toHaveText(String(after.today.saves));
    await expect(
      page
        .getByTestId("analytics-totals")
        .locator("div")
        .filter({ hasText: /^Followers/ }),
    ).toBeVisible();
    await expect(cells.last()).toHaveText(String(after.today.testSales));
    await expect(page.getByTestId("analytics-test-sales")).toContainText("no money moved");

    // The listing table sorts by each column through links, and says how it is sorted.
    const table = page.getByTestId("analytics-listings");
    await expect(table.locator(`tr[data-listing-id='${listingId}']`)).toBeVisible();
    await table.getByRole("link", { name: /^Views/ }).click();
    await expect(page).toHaveURL(/sort=views&dir=desc/);
    await expect(table.getByRole("columnheader", { name: /^Views/ })).toHaveAttribute(
      "aria-sort",
      "descending",
    );
    const views = await table.locator("tbody tr td:nth-child(2)").allInnerTexts();
    expect(views.map(Number)).toEqual([...views.map(Number)].sort((a, b) => b - a));
    await table.getByRole("link", { name: /^Views/ }).click();
    await expect(page).toHaveURL(/sort=views&dir=asc/);
    await expect(table.getByRole("columnheader", { name: /^Views/ })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
    await expectAccessible(page, javaScriptOn);
    await captureScreen(page, "analytics", javaScriptOn);

    // The monthly sales CSV: a plain link that downloads the file, with or without JavaScript.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download sales (CSV)" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^selfie-studio-sales-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await download.createReadStream().then(
      (stream) =>
        new Promise<string>((resolve, reject) => {
          const parts: Buffer[] = [];
          stream.on("data", (part: Buffer) => parts.push(part));
          stream.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
          stream.on("error", reject);
        }),
    );
    const [header, ...lines] = csv.split("\r\n");
    expect(header).toBe(
      '"month","listing_id","title","licence","test","items_sold","gross","discount","refunded","creator_share","platform_fee","currency"',
    );
    // This run's test sale, in this month's test row of the listing.
    expect(
      lines.some(
        (line) =>
          line.startsWith(`"${today.slice(0, 7)}","${listingId}",`) &&
          line.includes(',"standard","yes",'),
      ),
    ).toBe(true);
    const fromApi = await page.request.get("/api/token-analytics/sales.csv");
    expect(fromApi.status()).toBe(200);
    expect(fromApi.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    expect((await request.get("/api/token-analytics/sales.csv")).status()).toBe(401);

    // A range that does not exist: the default range with a message, never an error page.
    await page.goto("/analytics?days=14");
    await expect(page.getByTestId("analytics-notice")).toContainText("choose 7, 30 or 90 days");
    await expect(page.getByRole("link", { name: "30 days" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const refused = await page.request.get("/api/token-analytics?days=14");
    expect(refused.status()).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain("days must be 7, 30 or 90");
  });
});
