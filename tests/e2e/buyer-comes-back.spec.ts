import type { Page } from "@playwright/test";
import { addressesOf, outboxFiles, readEml } from "../setup/mail";
import {
  ACCOUNTS,
  E2E_OUTBOX,
  TAP_DEVICES,
  createAccount,
  expect,
  listStyle,
  receiptLibraryLink,
  runTag,
  signIn,
  signOut,
  tap,
  test,
  tokenFor,
} from "./fixtures";

/**
 * A buyer who comes back, on a phone, with JavaScript on and off (every
 * control tapped at its centre): a new creator lists two styles and makes a
 * bundle of them; the buyer saves both listings (one from its storefront
 * card, one from its page) and finds them on /saved, follows the creator
 * from a listing page and confirms by the mailed link, buys the bundle
 * through the built-in test checkout, and asks for a refund from the library
 * their receipt links to, with a reason. The admin approves it in the admin
 * portal; the buyer is mailed the refund, the library then shows the request
 * granted, the order refunded and no downloads, and the old download link
 * answers 410.
 */

const PHONE = TAP_DEVICES.find((device) => device.name === "phone")!;

/** The follow confirmation link of the first mail to `email` written after `known`. */
async function followConfirmLink(email: string, known: Set<string>): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        for (const file of outboxFiles(E2E_OUTBOX).filter((name) => !known.has(name))) {
          const mail = await readEml(file);
          if (!addressesOf(mail.to).includes(email)) continue;
          link = /https?:\/\/\S+\/follows\/confirm\?token=[\w-]+/.exec(mail.text ?? "")?.[0];
          if (link) return link;
        }
        return undefined;
      },
      { timeout: 15_000, message: `a follow confirmation mail to ${email} in ${E2E_OUTBOX}` },
    )
    .toBeTruthy();
  return link!;
}

/** Makes a bundle of these listings with the form on My listings; answers the bundle's path. */
async function makeBundle(page: Page, title: string, listings: string[], price: string) {
  await page.goto("/listings");
  const form = page.getByTestId("bundle-form");
  await form.getByLabel("Title").fill(title);
  for (const listing of listings) await form.getByRole("checkbox", { name: listing }).check();
  await form.getByLabel("Bundle price (USD)").fill(price);
  await form.getByTestId("make-bundle").click();
  await expect(page.getByTestId("toast")).toContainText("Bundle made");
  const mine = page.getByTestId("my-bundle").filter({ hasText: title });
  const path = await mine.getByRole("link", { name: /View/ }).getAttribute("href");
  expect(path).toMatch(/^\/bundles\/[\w-]+$/);
  return path!;
}

test("a buyer on a phone saves, follows, buys a bundle, asks for a refund and sees it granted", async ({
  browser,
  page,
  request,
  javaScriptOn,
}) => {
  test.setTimeout(240_000);
  const tag = runTag(javaScriptOn);
  const creator = {
    email: `comeback-${tag}@e2e.test`,
    password: `comeback-${tag}-password`,
    firstName: "Cora",
    lastName: "Comeback",
  };
  const first = `Comeback anime ${tag}`;
  const second = `Comeback cartoon ${tag}`;
  const bundleTitle = `Both of Cora ${tag}`;
  const buyerEmail = `returning-${tag}@example.com`;

  // A new creator with a storefront, two listings and a bundle of them.
  await createAccount(request, creator);
  const auth = { Authorization: `Bearer ${await tokenFor(request, creator)}` };
  const handle = `cora-${tag}`.slice(0, 30);
  const named = await request.patch("/api/account", { data: { handle }, headers: auth });
  expect(named.status(), await named.text()).toBe(200);
  const followers = async () =>
    ((await (await request.get("/api/account", { headers: auth })).json()) as { followers: number })
      .followers;
  await signIn(page, creator);
  await listStyle(page, "anime", first, "6");
  await listStyle(page, "cartoon", second, "4");
  const bundlePath = await makeBundle(page, bundleTitle, [first, second], "8");
  await signOut(page);

  const buyerContext = await browser.newContext({ ...PHONE.use, javaScriptEnabled: javaScriptOn });
  const buyer = await buyerContext.newPage();

  // 1. Saves the first listing from its storefront card, the second from its page.
  await buyer.goto(`/creators/${handle}`);
  const cardOf = (title: string) =>
    buyer
      .getByTestId("listing-card")
      .filter({ has: buyer.getByRole("heading", { name: title, exact: true }) });
  await expect(cardOf(first)).toBeVisible();
  await expect(cardOf(second)).toBeVisible();
  await tap(buyer, cardOf(first).getByTestId("save-listing"));
  await expect(cardOf(first).getByTestId("unsave-listing")).toBeVisible();
  const secondPath = await cardOf(second).getByTestId("listing-link").getAttribute("href");
  expect(secondPath).toMatch(/^\/marketplace\/[\w-]+$/);
  await buyer.goto(secondPath!);
  await expect(buyer.getByTestId("listing-title")).toHaveText(second);
  const details = buyer.getByTestId("listing-details");
  await tap(buyer, details.getByTestId("save-listing"));
  await expect(details.getByTestId("unsave-listing")).toBeVisible();
  await buyer.goto("/saved");
  const saved = buyer.getByTestId("saved-listing");
  await expect(saved).toHaveCount(2);
  // Newest saved first.
  await expect(saved.nth(0)).toContainText(second);
  await expect(saved.nth(1)).toContainText(first);

  // 2. Follows the creator from the listing page and confirms by the mailed link.
  await buyer.goto(secondPath!);
  const follow = buyer.getByTestId("follow-form");
  const address = follow.getByRole("textbox", { name: /Follow Cora/ });
  await tap(buyer, address);
  await address.fill(buyerEmail);
  const known = new Set(outboxFiles(E2E_OUTBOX));
  await tap(buyer, follow.getByRole("button", { name: "Follow" }));
  await expect(buyer.getByTestId("follow-sent")).toContainText("we sent a link to your email");
  const confirm = new URL(await followConfirmLink(buyerEmail, known));
  await buyer.goto(`${confirm.pathname}${confirm.search}`);
  await expect(buyer.getByRole("heading", { name: "Confirm your follow" })).toBeVisible();
  expect(await followers()).toBe(0);
  await tap(buyer, buyer.getByRole("button", { name: "Confirm" }));
  await expect(buyer.getByTestId("follow-confirmed")).toContainText("You follow this creator now");
  expect(await followers()).toBe(1);

  // 3. Buys the bundle from the storefront through the test checkout.
  await buyer.goto(`/creators/${handle}`);
  const bundleCard = buyer.getByTestId("bundle-card").filter({ hasText: bundleTitle });
  await tap(buyer, bundleCard.getByRole("link", { name: bundleTitle }));
  await expect(buyer).toHaveURL(new RegExp(`${bundlePath}$`));
  await expect(buyer.getByTestId("bundle-title")).toHaveText(bundleTitle);
  await tap(buyer, buyer.getByTestId("buy-now"));
  await expect(buyer).toHaveURL(/\/cart$/);
  const checkout = buyer.getByTestId("checkout-form");
  await expect(checkout).toContainText("2 images. Total $8.00 before any discount code or tax");
  await tap(buyer, checkout.getByLabel("Name"));
  await checkout.getByLabel("Name").fill("Rory Returning");
  await tap(buyer, checkout.getByLabel("Email"));
  await checkout.getByLabel("Email").fill(buyerEmail);
  await tap(buyer, checkout.getByRole("button", { name: "Proceed to Payment" }));
  await expect(buyer).toHaveURL(/\/test-checkout\/[^/?]+$/);
  await expect(buyer.getByTestId("test-checkout-total")).toHaveText("$8.00");
  await tap(buyer, buyer.getByTestId("test-pay"));
  await expect(buyer.getByTestId("purchase-complete")).toContainText("Payment Successful!");

  // 4. The receipt's library link: both images, and a refund asked for with a reason.
  const library = new URL(await receiptLibraryLink(buyerEmail));
  const libraryPath = `${library.pathname}${library.search}`;
  await buyer.goto(libraryPath);
  const order = buyer.getByTestId("library-order");
  await expect(order).toHaveCount(1);
  await expect(order.getByTestId("library-item")).toHaveCount(2);
  await expect(order).toContainText(first);
  await expect(order).toContainText(second);
  await expect(order.getByTestId("download-link")).toHaveCount(2);
  const downloadHref = await order.getByTestId("download-link").first().getAttribute("href");
  expect((await buyer.request.get(downloadHref!)).status()).toBe(200);
  const orderId = (await order.getAttribute("id"))!.replace(/^order-/, "");
  const ask = order.getByTestId("refund-request");
  await tap(buyer, ask.locator("summary"));
  const reason = "I meant to buy only the anime one.";
  const why = ask.getByLabel("Why do you ask for a refund?");
  await tap(buyer, why);
  await why.fill(reason);
  await tap(buyer, ask.getByRole("button", { name: "Ask for a refund" }));
  await expect(buyer.getByTestId("toast")).toContainText("Refund requested");
  await expect(order.getByTestId("refund-request-state")).toHaveAttribute(
    "data-status",
    "requested",
  );
  await expect(order.getByTestId("refund-request")).toHaveCount(0);

  // 5. The admin approves it in the admin portal, on a phone too.
  const adminContext = await browser.newContext({ ...PHONE.use, javaScriptEnabled: javaScriptOn });
  const admin = await adminContext.newPage();
  await signIn(admin, ACCOUNTS.admin);
  await admin.goto("/admin#refund-requests");
  const requestItem = admin
    .getByTestId("admin-refund-requests")
    .getByTestId("refund-request-item")
    .filter({ hasText: orderId });
  await expect(requestItem).toHaveAttribute("data-status", "requested");
  await expect(requestItem).toContainText(buyerEmail);
  await expect(requestItem).toContainText(reason);
  await expect(requestItem).toContainText(first);
  await expect(requestItem).toContainText(second);
  await tap(admin, requestItem.getByRole("button", { name: `Approve: refund order ${orderId}` }));
  await expect(admin.getByTestId("toast")).toContainText("Refund request approved");
  await expect(
    admin
      .getByTestId("admin-refund-requests")
      .getByTestId("refund-request-item")
      .filter({ hasText: orderId }),
  ).toHaveAttribute("data-status", "refunded");
  await adminContext.close();
  await expect
    .poll(
      async () => {
        for (const file of outboxFiles(E2E_OUTBOX).filter((name) => !known.has(name))) {
          const mail = await readEml(file);
          if (addressesOf(mail.to).includes(buyerEmail) && /refunded/.test(mail.subject ?? ""))
            return mail.subject;
        }
        return undefined;
      },
      { timeout: 15_000, message: `the refund notice to ${buyerEmail}` },
    )
    .toBe("Your Selfie Studio order was refunded");

  // The buyer's library: the request granted, the order refunded, nothing to download.
  await buyer.goto(libraryPath);
  await expect(order.getByTestId("refund-request-state")).toHaveAttribute(
    "data-status",
    "refunded",
  );
  await expect(order.getByTestId("refund-request-state")).toHaveText(
    "Refund requested and granted: the order is refunded.",
  );
  await expect(order.getByTestId("library-order-refunded")).toBeVisible();
  await expect(order.getByTestId("library-item")).toHaveCount(2);
  await expect(order.getByTestId("download-link")).toHaveCount(0);
  expect((await buyer.request.get(downloadHref!)).status()).toBe(410);
  await buyerContext.close();
});
