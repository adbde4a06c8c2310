import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { DEMO_CREATOR } from "../../db/demo-account";
import { ROOT, startServer, type RunningServer } from "../process/support/server-process";
import { E2E_ADMIN } from "../../playwright.config";
import { captureScreen, expect, expectAccessible, submitSignIn, test } from "./fixtures";

/**
 * Money reaches the creator, and a refund takes it back, on a server as
 * `npm start` runs it (no keys, development: test sales count, test payouts):
 * the demo creator sets up a test payout account from the dashboard, a buyer
 * pays in the test checkout, the creator's share shows as transferred, the
 * admin refunds the order from the admin portal, the buyer's download link
 * answers 410 with a page saying so, and the numbers agree on every screen:
 * the creator's dashboard card, /payouts, /api/token-payouts, the admin's
 * platform revenue and the admin's payouts view. With JavaScript on and off.
 *
 * The journey has its own server (its data changes the demo creator's
 * numbers), started like the process tests' servers but in development mode.
 */

const money = (text: string | null) =>
  Math.round(Number((text ?? "").replace(/[^0-9.-]/g, "")) * 100);

async function signInAt(
  page: Page,
  origin: string,
  email: string,
  password: string,
  redirectTo: string,
) {
  await submitSignIn(page, { email, password }, redirectTo, origin);
  await expect(page).toHaveURL(new RegExp(`${redirectTo.replace(/[?]/g, "\\?")}$`));
}

interface Balance {
  earned: number;
  owed: number;
  transferred: number;
  held: number;
  reversed: number;
}

async function balanceOn(page: Page): Promise<Balance> {
  const read = async (key: keyof Balance) =>
    money(await page.getByTestId(`balance-${key}`).first().textContent());
  return {
    earned: await read("earned"),
    owed: await read("owed"),
    transferred: await read("transferred"),
    held: await read("held"),
    reversed: await read("reversed"),
  };
}

async function newPage(browser: Browser, javaScriptOn: boolean): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: javaScriptOn });
  return context.newPage();
}

let server: RunningServer | undefined;
test.afterAll(async () => {
  await server?.stop();
});

test("a creator is paid through a test payout account, and the admin's refund takes it back everywhere", async ({
  browser,
  javaScriptOn,
}) => {
  test.setTimeout(300_000);
  const port = javaScriptOn ? 3664 : 3665;
  const scratch = path.join(ROOT, "tests", ".tmp", `e2e-payouts-${port}`);
  fs.rmSync(scratch, { recursive: true, force: true });
  server = await startServer({
    dataDir: path.join(scratch, "data"),
    port,
    seed: true,
    env: {
      NODE_ENV: "development",
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
    },
  });
  const origin = server.origin;

  // The creator sets up payouts from the dashboard's card.
  const creator = await newPage(browser, javaScriptOn);
  await signInAt(creator, origin, DEMO_CREATOR.email, DEMO_CREATOR.password, "/dashboard");
  const card = creator.getByTestId("payouts-card");
  await expect(card.getByTestId("payout-account-state")).toHaveText("Not set up");
  await card.getByRole("link", { name: /Set up payouts/ }).click();
  await expect(creator).toHaveURL(`${origin}/payouts`);
  await expectAccessible(creator, javaScriptOn);
  // The country is asked first: one Stripe cannot pay from a US platform is refused with a sentence, and nothing is set up.
  const countrySelect = creator.getByLabel("Country you live in (where your bank account is)");
  await expect(countrySelect).toHaveValue("US");
  await countrySelect.selectOption("NG");
  await creator.getByTestId("payouts-onboard").click();
  await expect(creator.getByTestId("payouts-error")).toContainText(
    "Stripe cannot pay creators in Nigeria",
  );
  await expect(
    creator.getByTestId("payout-account").getByTestId("payout-account-state"),
  ).toHaveText("Not set up");
  // A creator in France is paid across the border.
  await creator.getByLabel("Country you live in (where your bank account is)").selectOption("FR");
  await creator.getByTestId("payouts-onboard").click();
  await expect(creator).toHaveURL(`${origin}/payouts/test-onboarding`);
  await expect(creator.getByTestId("test-mode-banner")).toContainText("TEST MODE");
  await expectAccessible(creator, javaScriptOn);
  await creator.getByRole("button", { name: "Complete test onboarding" }).click();
  await expect(creator).toHaveURL(`${origin}/payouts?onboarding=return`);
  await expect(
    creator.getByTestId("payout-account").getByTestId("payout-account-state"),
  ).toHaveText("Active");
  await expect(creator.getByTestId("payout-account-country")).toHaveText("France");
  await expect(creator.getByTestId("payout-cross-border")).toContainText("24 hours");
  const before = await balanceOn(creator);
  /** One figure of the creator's balance, read afresh from /payouts. */
  const payoutsSay = async (key: keyof Balance) => {
    await creator.goto(`${origin}/payouts`);
    return (await balanceOn(creator))[key];
  };

  // A buyer pays for one of the creator's images in the test checkout.
  const buyer = await newPage(browser, javaScriptOn);
  const buyerEmail = `payouts-${javaScriptOn ? "js" : "nojs"}@example.com`;
  await buyer.goto(`${origin}/marketplace`);
  const listing = buyer.getByTestId("listing-card").first();
  const priceCents = money(await listing.getByTestId("listing-price").textContent());
  const shareCents = Math.round(priceCents * 0.85);
  const feeCents = priceCents - shareCents;
  await listing.getByTestId("add-to-cart").click();
  await expect(buyer.getByTestId("header-cart-count")).toHaveText("1");
  await buyer.getByTestId("checkout-button").click();
  const checkout = buyer.getByTestId("checkout-form");
  await checkout.getByLabel("Name").fill("Pat Payouts");
  await checkout.getByLabel("Email").fill(buyerEmail);
  await checkout.getByRole("button", { name: "Proceed to Payment" }).click();
  await buyer.getByTestId("test-pay").click();
  const complete = buyer.getByTestId("purchase-complete");
  await expect(complete).toContainText("Payment Successful!");
  const downloadHref = (await complete.getByTestId("download-link").first().getAttribute("href"))!;
  const licenseHref = (await complete.getByTestId("license-link").first().getAttribute("href"))!;
  expect((await buyer.request.head(new URL(downloadHref, origin).toString())).status()).toBe(200);

  // The share goes to the creator's test payout account (a background job).
  await expect.poll(() => payoutsSay("transferred")).toBe(before.transferred + shareCents);
  const paid = await balanceOn(creator);
  expect(paid).toEqual({
    ...before,
    earned: before.earned + shareCents,
    transferred: before.transferred + shareCents,
  });
  await expect(creator.getByTestId("transfer-row").first()).toContainText("Transferred");
  await captureScreen(creator, "payouts", javaScriptOn);
  await expect(creator.getByTestId("test-account-balance")).toContainText(
    `$${(paid.transferred / 100).toFixed(2)}`,
  );
  await creator.goto(`${origin}/dashboard`);
  expect(await balanceOn(creator)).toEqual(paid);

  // The admin sees the revenue and refunds the order.
  const admin = await newPage(browser, javaScriptOn);
  await signInAt(admin, origin, E2E_ADMIN.email, E2E_ADMIN.password, "/admin");
  const revenueBefore = money(await admin.getByTestId("stat-platform-revenue").textContent());
  const orders = admin.getByTestId("orders-section");
  await orders.getByLabel("Buyer email or order ID").fill(buyerEmail);
  await orders.getByRole("button", { name: "Search orders" }).click();
  const row = orders.getByTestId("order-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Paid");
  await row.getByTestId("refund-link").click();
  const confirmation = admin.getByTestId("refund-confirmation");
  await expect(confirmation).toBeVisible();
  expect(money(await confirmation.getByTestId("refund-amount").textContent())).toBe(priceCents);
  await captureScreen(admin, "admin-refund", javaScriptOn);
  await expectAccessible(admin, javaScriptOn);
  await confirmation.getByLabel(/Reason/).fill("Customer asked");
  await confirmation.getByTestId("confirm-refund").click();
  await expect(admin.getByTestId("orders-section").getByTestId("order-row")).toContainText(
    "Refunded",
  );
  await admin.goto(`${origin}/admin`);
  expect(money(await admin.getByTestId("stat-platform-revenue").textContent())).toBe(
    revenueBefore - feeCents,
  );

  // The buyer's download link is gone, and the license says it was revoked.
  const gone = await buyer.request.get(new URL(downloadHref, origin).toString());
  expect(gone.status()).toBe(410);
  await buyer.goto(new URL(downloadHref, origin).toString()).catch(() => undefined);
  await expect(buyer.getByRole("heading", { name: "This order was refunded" })).toBeVisible();
  await buyer.goto(new URL(licenseHref, origin).toString());
  await expect(buyer.getByTestId("license-revoked")).toContainText("This license was revoked on");

  // The creator's share was reversed, and every screen says the same.
  await expect.poll(() => payoutsSay("reversed")).toBe(paid.reversed + shareCents);
  const refunded = await balanceOn(creator);
  expect(refunded).toEqual({
    ...paid,
    earned: paid.earned - shareCents,
    transferred: paid.transferred - shareCents,
    reversed: paid.reversed + shareCents,
  });
  expect(refunded.earned).toBe(refunded.owed + refunded.transferred + refunded.held);
  await expect(creator.getByTestId("transfer-row").first()).toContainText("Reversed");
  await expect(creator.getByTestId("test-account-balance")).toContainText(
    `$${(refunded.transferred / 100).toFixed(2)}`,
  );
  const api = (await (await creator.request.get(`${origin}/api/token-payouts`)).json()) as {
    balance: Record<keyof Balance, string>;
  };
  expect(
    Object.fromEntries(
      Object.entries(api.balance).map(([key, value]) => [key, Math.round(Number(value) * 100)]),
    ),
  ).toEqual(refunded);
  await creator.goto(`${origin}/dashboard`);
  expect(await balanceOn(creator)).toEqual(refunded);

  await admin.goto(`${origin}/admin`);
  const payoutRow = admin.getByTestId("payout-row").filter({ hasText: DEMO_CREATOR.email });
  const adminSays = async (key: keyof Balance) =>
    money(await payoutRow.getByTestId(`payout-${key}`).textContent());
  expect({
    earned: await adminSays("earned"),
    owed: await adminSays("owed"),
    transferred: await adminSays("transferred"),
    held: await adminSays("held"),
    reversed: await adminSays("reversed"),
  }).toEqual(refunded);
});
