import { ACCOUNTS, expect, expectAccessible, signIn, signOut, test } from "./fixtures";

test.describe("signing in and out", () => {
  test("the demo creator signs in and out through /auth", async ({ page, javaScriptOn }) => {
    await page.goto("/auth");
    // In the page itself (the site footer repeats the tagline).
    await expect(
      page.getByRole("main").getByText("Transform your selfies into AI art and earn money"),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
    await expect(page.getByText("Enter your credentials to access your account")).toBeVisible();
    await expectAccessible(page, javaScriptOn);
    await signIn(page, "creator");
    await expect(page.getByTestId("toast")).toContainText("Welcome back!");
    await expect(page.getByTestId("toast")).toContainText("You've been logged in successfully.");
    // Signed-in navigation.
    for (const name of ["Dashboard", "Listings", "Analytics", "Integrations", "Settings"]) {
      await expect(
        page
          .getByRole("navigation", { name: "Main" })
          .getByRole("link", { name, exact: true })
          .first(),
      ).toBeAttached();
    }
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Payment Monitor" }),
    ).toHaveCount(0);
    await expect(page.getByTestId("nav-user").first()).toContainText("Dana");
    // A signed-in visitor on /auth goes to the dashboard.
    await page.goto("/auth");
    await expect(page).toHaveURL(/\/dashboard$/);
    await signOut(page);
    await expect(page.getByTestId("toast")).toContainText("Logged out");
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("the super admin signs in and out", async ({ page }) => {
    await signIn(page, "admin");
    await expect(page.getByTestId("nav-user").first()).toContainText("Super");
    await signOut(page);
  });

  test("a wrong password shows the error and keeps the visitor signed out", async ({
    page,
    javaScriptOn,
  }) => {
    await page.goto("/auth");
    const form = page.locator("form#login");
    await form.getByLabel("Email").fill(ACCOUNTS.creator.email);
    await form.getByLabel("Password").fill("not-the-password");
    await form.getByRole("button", { name: "Login" }).click();
    // One summary: the toast with JavaScript, an alert in the form without.
    if (javaScriptOn) {
      await expect(page.getByTestId("toast")).toContainText("Login failed");
      await expect(page.getByTestId("toast")).toContainText("Invalid email or password");
      await expect(form.getByRole("alert")).toHaveCount(0);
    } else {
      await expect(form.getByRole("alert")).toHaveText("Invalid email or password");
    }
    await expect(page.getByRole("link", { name: "Sign In" }).first()).toBeAttached();
  });

  test("field validation messages", async ({ page }) => {
    await page.goto("/auth");
    const form = page.locator("form#login");
    await form.getByLabel("Email").fill("not-an-email");
    await form.getByLabel("Password").fill("123");
    await form.getByRole("button", { name: "Login" }).click();
    await expect(form.getByText("Invalid email address")).toBeVisible();
    await expect(form.getByText("Password must be at least 6 characters")).toBeVisible();
  });

  test("registration is closed: the Register tab shows the notice and the waitlist instead of a form that cannot register", async ({
    page,
  }) => {
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Register" }).click();
    await expect(page.getByRole("heading", { name: "Create account" })).toBeVisible();
    await expect(page.getByTestId("registration-closed")).toHaveText(
      "Registration is closed during the beta. Please use the login form with existing credentials.",
    );
    await expect(page.locator("form#register")).toHaveCount(0);
    await expect(page.locator("form#waitlist-form").getByLabel("Email")).toBeVisible();
    // A typed address that is refused stays typed.
    await page.locator("form#waitlist-form").getByLabel("Email").fill("not-an-email");
    await page.getByRole("button", { name: "Join the waitlist" }).click();
    await expect(
      page.locator("form#waitlist-form").getByText("Invalid email address"),
    ).toBeVisible();
    await expect(page.locator("form#waitlist-form").getByLabel("Email")).toHaveValue(
      "not-an-email",
    );
  });
});

test.describe("the app shell", () => {
  test("signed-out navigation", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const name of ["Home", "Marketplace", "Training", "Sign In", "Get Started"]) {
      await expect(nav.getByRole("link", { name, exact: true }).first()).toBeAttached();
    }
    await expect(nav.getByRole("link", { name: "Dashboard", exact: true })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Selfie Studio" })).toHaveAttribute(
      "href",
      "/landing",
    );
  });

  test("an unknown path shows the 404 page", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  });

  test("security headers are set on pages", async ({ page }) => {
    const response = await page.goto("/auth");
    const headers = response!.headers();
    expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("same-origin");
  });
});
