import type { Page } from "@playwright/test";
import type { Role } from "./fixtures";
import { captureScreen, expect, expectAccessible, signIn, test } from "./fixtures";
import { CREATOR_SHARE_PERCENT } from "../../app/features/payouts/types";
import { E2E_ADMIN } from "../../playwright.config";

/**
 * The route table below, for a visitor, a creator and the admin: every
 * route answers as the table expects, with its key copy, passes axe and is
 * photographed at 390 px and 1280 px.
 */
type Viewer = "visitor" | Role;

interface Expectation {
  /** Where the browser ends up (default: the route itself). */
  url?: RegExp;
  /** Text that must be on the page. */
  copy: string[];
}

/** The same page, with the same copy, for a visitor, a creator and the admin. */
const forEveryone = (copy: string[]): Record<Viewer, Expectation> => ({
  visitor: { copy },
  creator: { copy },
  admin: { copy },
});

const TABLE: Record<string, Record<Viewer, Expectation>> = {
  "/": {
    visitor: { copy: ["Transform your selfies into AI art and earn money", "Start Earning Today"] },
    creator: { copy: ["Step 1 of 4", "Manage Integrations"] },
    admin: { copy: ["Step 1 of 4", "Manage Integrations"] },
  },
  "/landing": forEveryone(["Transform your selfies into AI art and earn money"]),
  "/auth": {
    visitor: { copy: ["Welcome back", "Enter your credentials to access your account"] },
    creator: { url: /\/dashboard$/, copy: ["Step 1 of 4"] },
    // The super admin signed in lands on the Admin Portal, not the creator studio.
    admin: { url: /\/admin$/, copy: ["Super Admin"] },
  },
  "/marketplace": forEveryone(["Marketplace"]),
  "/training": forEveryone(["JPG or PNG up to 10MB"]),
  "/integrations": {
    visitor: {
      copy: ["Authentication Required", "You need to be logged in to access integrations."],
    },
    creator: { copy: ["Integrations", "OpenSea", "Shopify"] },
    admin: { copy: ["Integrations", "OpenSea", "Shopify"] },
  },
  "/dashboard": {
    visitor: { url: /\/auth/, copy: ["Welcome back"] },
    creator: { copy: ["Step 1 of 4", "Upload"] },
    admin: { copy: ["Step 1 of 4", "Upload"] },
  },
  "/admin": {
    visitor: { url: /\/auth/, copy: ["Welcome back"] },
    creator: { copy: ["Access Denied", "You don't have permission to view this page."] },
    admin: {
      copy: [
        "Super Admin",
        "Manage users and monitor platform activity",
        "User Management",
        "Orders",
        "Payouts",
      ],
    },
  },
  "/admin/jobs": {
    visitor: { url: /\/auth/, copy: ["Welcome back"] },
    creator: { copy: ["Access Denied", "You don't have permission to view this page."] },
    admin: { copy: ["Jobs", "Background jobs that failed, and stuck ones"] },
  },
  "/payouts": {
    visitor: { url: /\/auth/, copy: ["Welcome back"] },
    creator: { copy: ["Payouts", "You keep 85% of each sale", "How your share moves"] },
    admin: { copy: ["Payouts", "You keep 85% of each sale", "How your share moves"] },
  },
  "/payment-monitor": {
    visitor: { url: /\/auth/, copy: ["Welcome back"] },
    creator: { copy: ["Payment Monitor", "How to Use"] },
    admin: { copy: ["Payment Monitor", "How to Use"] },
  },
  "/token-test": forEveryone(["Token Test"]),
  "/forgot-password": forEveryone(["Forgot password?", "Send reset link"]),
  "/reset-password": forEveryone(["Choose a new password", "Ask for a new link"]),
  "/confirm-registration": forEveryone(["Create your account", "Register again to get a new one"]),
  "/library": forEveryone(["Your library", "Email me my library link"]),
  "/settings": {
    visitor: { url: /\/auth/, copy: ["Welcome back"] },
    creator: { copy: ["Settings", "Profile photo", "Delete account"] },
    admin: { copy: ["Settings", "Profile photo", "Delete account"] },
  },
  "/privacy": forEveryone(["Privacy"]),
  "/terms": {
    visitor: {
      copy: [
        "Terms of Service",
        "No impersonation",
        "Refunds within 14 days on request",
        `the creator keeps ${CREATOR_SHARE_PERCENT}%`,
      ],
    },
    creator: { copy: ["Terms of Service", "No impersonation", "Back to Dashboard"] },
    admin: { copy: ["Terms of Service", "No impersonation", "Back to Dashboard"] },
  },
  "/contact": {
    // SUPPORT_EMAIL is unset on the browser suite's server: the admin's address stands in.
    visitor: { copy: ["Contact us", E2E_ADMIN.email] },
    creator: { copy: ["Contact us", E2E_ADMIN.email] },
    admin: { copy: ["Contact us", E2E_ADMIN.email] },
  },
  "/help": forEveryone(["Help Center", "Where are my downloads?", "How do I get paid?"]),
  "/creator-guide": forEveryone(["From selfie to sale", "Upload a selfie", "Get paid"]),
  "/pricing": forEveryone([
    "Pricing",
    "Beta Access",
    `Keep ${CREATOR_SHARE_PERCENT}% of every sale`,
  ]),
  "/no-such-route": forEveryone(["Page Not Found"]),
  // The creator's analytics
  "/analytics": {
    visitor: { url: /\/auth/, copy: ["Welcome back"] },
    creator: { copy: ["Analytics", "Per day, the last 30 days", "Per listing, the last 30 days"] },
    admin: { copy: ["Analytics", "Per day, the last 30 days"] },
  },
  // The creator's discount codes
  "/discounts": {
    visitor: { url: /\/auth/, copy: ["Welcome back"] },
    creator: { copy: ["Discounts", "Your codes", "Make a code"] },
    admin: { copy: ["Discounts", "Your codes", "Make a code"] },
  },
};

async function visit(
  page: Page,
  route: string,
  viewer: Viewer,
  expected: Expectation,
  javaScriptOn: boolean,
) {
  // Access Denied sends the visitor home after a second (a timer, or a meta refresh without
  // JavaScript): the way home is held while the page is checked, so a slow machine cannot turn
  // the page before it is read; then it is let go, and the page must go home.
  const leavesBySelf = expected.copy.includes("Access Denied");
  let letGo = () => {};
  const home = (url: URL) => url.pathname === "/";
  if (leavesBySelf) {
    const held = new Promise<void>((resolve) => (letGo = resolve));
    await page.route(home, async (request) => {
      await held;
      await request.continue();
    });
  }
  await page.goto(route);
  await expect(page, `${viewer} on ${route}`).toHaveURL(
    expected.url ?? new RegExp(`${route === "/" ? "/" : route}$`),
    {
      timeout: 15_000,
    },
  );
  for (const text of expected.copy) {
    await expect(
      page.getByText(text, { exact: false }).first(),
      `${viewer} on ${route}: "${text}"`,
    ).toBeVisible();
  }
  await expectAccessible(page, javaScriptOn);
  const name = `route-${viewer}-${route === "/" ? "home" : route.slice(1)}`;
  await captureScreen(page, name, javaScriptOn);
  if (leavesBySelf) {
    letGo();
    await expect(page, `${viewer} on ${route}, then`).toHaveURL(/\/$/);
    await page.unroute(home);
  }
}

for (const viewer of ["visitor", "creator", "admin"] as const) {
  test(`every route of the route table, as the ${viewer}`, async ({ page, javaScriptOn }) => {
    // Every route, checked with axe and photographed twice: minutes on a busy machine.
    test.setTimeout(300_000);
    if (viewer !== "visitor") await signIn(page, viewer);
    for (const [route, byViewer] of Object.entries(TABLE)) {
      await visit(page, route, viewer, byViewer[viewer], javaScriptOn);
    }
  });
}
