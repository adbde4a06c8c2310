import { captureScreen, expect, expectAccessible, signIn, test } from "./fixtures";

test.describe("public pages, signed out", () => {
  test("the landing page has its seven sections in order with real samples", async ({
    page,
    javaScriptOn,
  }) => {
    for (const path of ["/", "/landing"]) {
      await page.goto(path);
      // The seventh, the footer, is the site footer every page has (after <main>).
      const ids = await page
        .locator("[data-testid^='landing-'], [data-testid='site-footer']")
        .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-testid")));
      const order = [
        "landing-hero",
        "landing-marketplaces",
        "landing-testimonials",
        "landing-how-it-works",
        "landing-beta",
        "landing-pricing",
        "site-footer",
      ];
      expect(ids.filter((id) => order.includes(id!))).toEqual(order);
    }
    for (const style of ["professional", "cartoon", "anime", "fantasy"]) {
      const img = page.getByTestId(`hero-sample-${style}`).locator("img");
      await expect(img).toBeVisible();
      const src = await img.getAttribute("src");
      const response = await page.request.get(src!);
      expect(response.status()).toBe(200);
      expect(response.headers()["content-type"]).toBe("image/jpeg");
    }
    await expect(page.getByTestId("marketplace-wordmark")).toHaveCount(9);
    // Without BETA_ENDS_AT the countdown runs to midnight UTC, and says it is illustrative; so do the spots without BETA_SPOTS.
    await expect(page.getByTestId("beta-countdown")).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
    await expect(page.getByTestId("beta-countdown-note")).toHaveText(
      "Illustrative: it counts to midnight UTC, not to a real deadline.",
    );
    await expect(page.getByTestId("beta-spots")).toContainText("127");
    await expect(page.getByTestId("landing-beta").getByTestId("illustrative")).toHaveCount(2);
    await expect(page.getByTestId("plan-beta")).toBeVisible();
    await expect(page.getByTestId("plan-regular")).toContainText("Coming Soon");
    await expect(page.getByTestId("plan-premium")).toContainText("Coming Soon");
    // Registration is closed (as in e2e): the calls to action lead to the waitlist.
    await expect(page.getByRole("link", { name: "Start Earning Today" }).first()).toHaveAttribute(
      "href",
      "/auth?tab=register#waitlist",
    );
    await expectAccessible(page, javaScriptOn);
    await captureScreen(page, "landing", javaScriptOn);
    await page.getByRole("link", { name: "Start Earning Today" }).first().click();
    await expect(page).toHaveURL(/\/auth\?tab=register#waitlist$/);
    await expect(page.getByRole("button", { name: "Join the waitlist" })).toBeVisible();
  });

  test("the pages ask for their scripts at low priority, hydrate before load and hold no NUL byte", async ({
    page,
    request,
    javaScriptOn,
  }) => {
    for (const path of ["/", "/marketplace", "/auth", "/training"]) {
      const html = await (await request.get(path)).text();
      expect(html, `${path} holds a NUL byte`).not.toContain("\u0000");
      const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]*>/g)].map((m) => m[0]);
      expect(preloads.length, `module preloads on ${path}`).toBeGreaterThan(0);
      for (const preload of preloads) expect(preload).toContain('fetchpriority="low"');
      expect(html).toMatch(/<script nonce="[^"]+" type="module" fetchpriority="low" async="">/);
      if (javaScriptOn) {
        // The module script is the page's own, parsed as before: the page has hydrated when `load` comes.
        await page.goto(path);
        expect(await page.evaluate(() => typeof window.__remixRouter)).toBe("object");
      }
    }
  });

  test("training", async ({ page, javaScriptOn }) => {
    await page.goto("/training");
    await expect(page.getByTestId("upload-note")).toContainText("JPG or PNG up to 10MB");
    // A visitor goes back home (the dashboard link is for signed-in creators).
    await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    await expect(page.getByRole("link", { name: "Browse Marketplace" })).toHaveAttribute(
      "href",
      "/marketplace",
    );
    await expectAccessible(page, javaScriptOn);
    await captureScreen(page, "training", javaScriptOn);
  });

  test("integrations asks a visitor to sign in", async ({ page, javaScriptOn }) => {
    await page.goto("/integrations");
    await expect(page.getByRole("heading", { name: "Authentication Required" })).toBeVisible();
    await expect(page.getByText("You need to be logged in to access integrations.")).toBeVisible();
    await expectAccessible(page, javaScriptOn);
    await page.getByRole("link", { name: "Sign In" }).last().click();
    await expect(page).toHaveURL(/\/auth/);
  });

  test("signed-in-only routes send a visitor to sign in", async ({ page }) => {
    for (const path of ["/dashboard", "/payment-monitor", "/admin"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/auth/, { timeout: 15_000 });
    }
  });

  test("the sign-in screen and the 404 page look right", async ({ page, javaScriptOn }) => {
    await page.goto("/auth");
    await captureScreen(page, "auth", javaScriptOn);
    await page.goto("/definitely-not-here");
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await expectAccessible(page, javaScriptOn);
    await captureScreen(page, "not-found", javaScriptOn);
  });
});

test.describe("admin portal", () => {
  test("a creator is denied and sent home", async ({ page, javaScriptOn }) => {
    await signIn(page, "creator");
    const response = await page.goto("/admin");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
    await expect(page.getByText("You don't have permission to view this page.")).toBeVisible();
    await expect(page.getByTestId("user-row")).toHaveCount(0);
    await expectAccessible(page, javaScriptOn);
    await expect(page).toHaveURL(/\/$/, { timeout: 10_000 });
  });

  test("the admin searches users, views one and bans and unbans the demo creator", async ({
    browser,
    page,
    javaScriptOn,
  }) => {
    // The creator is signed in elsewhere.
    const creatorContext = await browser.newContext({ javaScriptEnabled: javaScriptOn });
    const creatorPage = await creatorContext.newPage();
    await signIn(creatorPage, "creator");

    await signIn(page, "admin", "/admin");
    await expect(page.getByTestId("super-admin-badge")).toHaveText("Super Admin");
    await expect(page.getByText("Manage users and monitor platform activity")).toBeVisible();
    for (const id of [
      "stat-total-users",
      "stat-active-users",
      "stat-total-images",
      "stat-platform-revenue",
    ]) {
      await expect(page.getByTestId(id)).toBeVisible();
    }
    await expectAccessible(page, javaScriptOn);
    await captureScreen(page, "admin", javaScriptOn);

    await page.getByRole("searchbox", { name: "Search users" }).fill("DEMO@");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByTestId("user-row")).toHaveCount(1);
    await page.getByRole("link", { name: "View Dana Demo" }).click();
    const dialog = page.getByRole("dialog", { name: "User Details" });
    await expect(dialog).toContainText("demo@selfie.studio");
    await expectAccessible(page, javaScriptOn);
    // A click before hydration opens the URL-addressed dialog (a Close link); after it, the Headless UI one (a button).
    await dialog
      .getByRole("button", { name: "Close" })
      .or(dialog.getByRole("link", { name: "Close" }))
      .click();
    await expect(page.getByRole("dialog", { name: "User Details" })).toHaveCount(0);

    // Ban asks first (a dialog with JavaScript, a server-rendered panel without).
    await page.getByRole("link", { name: "Ban Dana Demo" }).click();
    await page
      .getByRole("dialog", { name: "Ban Dana Demo?" })
      .getByRole("button", { name: "Ban user" })
      .click();
    await expect(page.getByTestId("toast")).toContainText("User banned");
    await expect(page.getByTestId("user-row").first()).toContainText("Banned");
    // The creator's session ended at once, and their listings left the marketplace.
    await creatorPage.goto("/payment-monitor");
    await expect(creatorPage).toHaveURL(/\/auth/);
    await creatorPage.goto("/marketplace?q=Astronaut");
    await expect(creatorPage.getByTestId("listing-card")).toHaveCount(0);

    await page.getByRole("button", { name: "Unban Dana Demo" }).click();
    await expect(page.getByTestId("toast")).toContainText("User unbanned");
    await creatorPage.goto("/marketplace?q=Astronaut");
    await expect(creatorPage.getByTestId("listing-card").first()).toBeVisible();
    await creatorContext.close();
  });
});
