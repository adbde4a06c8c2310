import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { test as base, expect } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { E2E_ADMIN } from "../../playwright.config";
import { addressesOf, outboxFiles, readEml } from "../setup/mail";

export { expect };

export const ACCOUNTS = {
  admin: E2E_ADMIN,
  // The demo creator seeded by `node scripts/start.mjs --seed` (app/boot/seed.server.ts).
  creator: { email: "demo@selfie.studio", password: "demo-creator" },
} as const;

export type Role = keyof typeof ACCOUNTS;

export interface Credentials {
  email: string;
  password: string;
}

/** Where this run's server writes its mail (no SMTP_URL in e2e): one .eml per message. */
export const E2E_OUTBOX = path.resolve(
  "tests/.tmp",
  `e2e-${Number(process.env.E2E_PORT ?? 3100)}`,
  "outbox",
);

/** The two screens the tapping specs run on: a desktop, and a phone with touch. */
export const TAP_DEVICES = [
  { name: "desktop", use: { viewport: { width: 1280, height: 900 } } },
  { name: "phone", use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } },
];

/** A tag of this run (JavaScript on or off, and the time), for names that must be new each run. */
export function runTag(javaScriptOn: boolean) {
  return `${javaScriptOn ? "js" : "nojs"}-${Date.now().toString(36)}`;
}

export const test = base.extend<{ javaScriptOn: boolean }>({
  javaScriptOn: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled);
  },
});

/**
 * Opens /auth (on `origin`, this run's server unless given; with `redirectTo`
 * when given), fills the sign-in form with these credentials and presses
 * Login; where it lands is for the caller to check.
 */
export async function submitSignIn(
  page: Page,
  { email, password }: Credentials,
  redirectTo?: string,
  origin = "",
) {
  await page.goto(
    `${origin}${redirectTo ? `/auth?redirectTo=${encodeURIComponent(redirectTo)}` : "/auth"}`,
  );
  const form = page.locator("form#login");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Login" }).click();
}

/** Signs in through the real /auth form (works with JavaScript on and off); without `redirectTo` the super admin lands on /admin, everyone else on the dashboard. */
export async function signIn(page: Page, who: Role | Credentials, redirectTo?: string) {
  const credentials = typeof who === "string" ? ACCOUNTS[who] : who;
  await submitSignIn(page, credentials, redirectTo);
  await expect(page).toHaveURL(
    redirectTo
      ? new RegExp(redirectTo.replace(/[?]/g, "\\?"))
      : credentials.email === ACCOUNTS.admin.email
        ? /\/admin$/
        : /\/dashboard$/,
  );
}

/** A bearer token from /api/token-login for these credentials. */
export async function tokenFor(request: APIRequestContext, credentials: Credentials) {
  const login = await request.post("/api/token-login", {
    data: { email: credentials.email, password: credentials.password },
  });
  expect(login.status()).toBe(200);
  return ((await login.json()) as { token: string }).token;
}

/** A new account, made by the admin through /api/admin/users (registration is closed in e2e). */
export async function createAccount(
  request: APIRequestContext,
  account: Credentials & { firstName: string; lastName: string },
) {
  const token = await tokenFor(request, ACCOUNTS.admin);
  const made = await request.post("/api/admin/users", {
    headers: { Authorization: `Bearer ${token}` },
    data: account,
  });
  expect(made.status(), await made.text()).toBe(201);
}

/** Disconnects a marketplace integration on /integrations and waits until its card says so. */
export async function disconnectIntegration(page: Page, platform: string) {
  await page.goto("/integrations");
  await page
    .getByTestId(`integration-card-${platform}`)
    .getByRole("button", { name: "Disconnect" })
    .click();
  await expect(page.getByTestId(`integration-card-${platform}`)).toHaveAttribute(
    "data-connected",
    "false",
  );
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign Out" }).first().click();
  await expect(page.getByRole("link", { name: "Sign In" }).first()).toBeVisible();
}

/**
 * Fails on any axe violation of the current page, whatever its impact, with
 * axe's experimental label-content-name-mismatch rule turned on (a control's
 * accessible name must contain its visible text, so a voice user can say
 * what they see). axe runs inside the page, so it checks the JavaScript-on
 * render (the same markup the server sends to a browser without JavaScript).
 */
export async function expectAccessible(page: Page, javaScriptOn: boolean) {
  if (!javaScriptOn) return;
  const results = await new AxeBuilder({ page })
    .options({ rules: { "label-content-name-mismatch": { enabled: true } } })
    .analyze();
  expect(
    results.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
    ),
  ).toEqual([]);
}

/**
 * Saves a full-page screenshot of the current screen at phone and desktop widths
 * (tests/e2e/screenshots, gitignored) for review.
 */
export async function captureScreen(page: Page, name: string, javaScriptOn: boolean) {
  const original = page.viewportSize();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({
      path: `tests/e2e/screenshots/${name}-${width}${javaScriptOn ? "" : "-nojs"}.png`,
      fullPage: true,
    });
  }
  if (original) await page.setViewportSize(original);
}

/** A real portrait photo for the upload journeys. */
export const PORTRAIT = "tests/fixtures/portrait.png";

type UploadFiles = Parameters<Page["setInputFiles"]>[1];

/**
 * Puts files into the dashboard's upload widget: with JavaScript the widget
 * uploads on change; without it the form is posted with its Upload button.
 */
export async function chooseUpload(page: Page, files: UploadFiles, javaScriptOn: boolean) {
  const widget = page.getByTestId("upload-widget");
  await widget.getByLabel("Choose a selfie to upload").setInputFiles(files);
  if (!javaScriptOn) await widget.getByRole("button", { name: "Upload", exact: true }).click();
}

/** Uploads the portrait from the dashboard and goes on to the style step; returns the image id. */
export async function uploadPortrait(page: Page, javaScriptOn: boolean): Promise<string> {
  await page.goto("/dashboard?step=upload");
  await chooseUpload(page, PORTRAIT, javaScriptOn);
  await expect(page.getByTestId("toast")).toContainText("Upload Successful");
  await expect(page.getByTestId("toast")).toContainText(
    "Your selfie has been uploaded successfully!",
  );
  await expect(page.getByTestId("upload-widget")).toHaveAttribute("data-state", "success");
  await page.getByRole("link", { name: "Choose Style" }).click();
  await expect(page).toHaveURL(/[?&]step=style/);
  const imageId = new URL(page.url()).searchParams.get("image");
  expect(imageId).toBeTruthy();
  return imageId!;
}

/**
 * On the style step: picks a style, presses Generate and waits for the local
 * engine (with JavaScript the page polls; without, it refreshes itself every
 * 2 s). Returns the stylized image id from the optimize step's URL.
 */
export async function generateStyle(
  page: Page,
  style: "professional" | "cartoon" | "anime" | "fantasy",
  javaScriptOn: boolean,
) {
  const generator = page.getByTestId("style-generator");
  await generator.locator(`input[name="style"][value="${style}"]`).check();
  await generator.getByRole("button", { name: /^Generate/ }).click();
  if (javaScriptOn) await expect(page.getByTestId("generating-overlay")).toBeVisible();
  await expect(page).toHaveURL(/[?&]step=optimize/, { timeout: 45_000 });
  await expect(page.getByTestId("toast")).toContainText("AI Style Generated!");
  const styledId = new URL(page.url()).searchParams.get("styled");
  expect(styledId).toBeTruthy();
  return styledId!;
}

/** The portrait as a multipart file field `image`. */
function portraitField() {
  return {
    image: {
      name: "portrait.png",
      mimeType: "image/png",
      buffer: fs.readFileSync(PORTRAIT),
    },
  };
}

/**
 * Verifies the signed-in creator's face with the portrait (POST /api/account/face, after the
 * consent to face processing, given here if missing), so their uploads of the portrait come back
 * `self` and may be listed: only faces that agreed are sold (decision record 085). The demo
 * creator's face is verified by the seed already.
 */
export async function verifyPortraitFace(page: Page) {
  const consent = await page.request.post("/api/account/consent", {
    data: { faceProcessing: true },
  });
  expect(consent.status(), await consent.text()).toBe(200);
  const face = await page.request.post("/api/account/face", { multipart: portraitField() });
  expect(face.status(), await face.text()).toBe(200);
}

/**
 * A completed stylized image of the signed-in creator, made through the JSON API (cookie
 * session). An upload that comes back `unverified` (a creator who has not verified their face)
 * is uploaded again once the face is verified, so the image may be listed.
 */
export async function makeStyledImage(page: Page, style: string): Promise<string> {
  const upload = async () => {
    const answer = await page.request.post("/api/token-images/upload", {
      multipart: portraitField(),
    });
    expect(answer.status()).toBe(201);
    return (await answer.json()) as { id: string; likeness: string };
  };
  let image = await upload();
  if (image.likeness === "unverified") {
    await verifyPortraitFace(page);
    image = await upload();
  }
  return stylizeAndWait(page, image.id, style, 60_000);
}

/** Signs in as the demo creator and makes a completed stylized image through the JSON API. */
export async function signInWithStyledImage(page: Page, style: string): Promise<string> {
  await signIn(page, "creator");
  return makeStyledImage(page, style);
}

/**
 * Asks for a style of one of the signed-in creator's uploads through the JSON
 * API and waits (up to `timeout` ms) until it is completed; returns its id.
 */
export async function stylizeAndWait(
  page: Page,
  imageId: string,
  style: string,
  timeout: number,
): Promise<string> {
  const stylize = await page.request.post(`/api/token-images/${imageId}/stylize`, {
    data: { style },
  });
  expect(stylize.status()).toBe(202);
  const { id } = await stylize.json();
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`/api/token-stylized-images/${id}`)).json()).status,
      { timeout },
    )
    .toBe("completed");
  return id;
}

/**
 * Taps a control as a finger or a mouse does: a pointer press at the centre of
 * its box, after checking that the topmost element there is the control itself
 * (or inside it, or the label that belongs to it). Playwright's own click would
 * wait for a covering element to go away or report it; a person's tap lands on
 * whatever is on top, so a backdrop painted over a dialog's panel fails here.
 */
export async function tap(page: Page, control: Locator) {
  await control.waitFor({ state: "visible" });
  // Scrolled to the middle of the screen (or of the dialog that scrolls it), and at rest: a finger
  // taps what it sees, after the page has stopped moving (images and panels may still be arriving).
  let box: { x: number; y: number; width: number; height: number } | null = null;
  const viewport = page.viewportSize();
  for (let attempt = 0; attempt < 20 && !box; attempt++) {
    await control.evaluate((element) =>
      element.scrollIntoView({ block: "center", inline: "center" }),
    );
    const first = await control.boundingBox();
    await page.waitForTimeout(50);
    const second = await control.boundingBox();
    if (!first || !second || first.x !== second.x || first.y !== second.y) continue;
    const [cx, cy] = [second.x + second.width / 2, second.y + second.height / 2];
    if (!viewport || (cx >= 0 && cy >= 0 && cx < viewport.width && cy < viewport.height))
      box = second;
  }
  expect(box, "the control comes to rest on the screen").not.toBeNull();
  const x = box!.x + box!.width / 2;
  const y = box!.y + box!.height / 2;
  const onTop = await control.evaluate(
    (element, [px, py]) => {
      const top = document.elementFromPoint(px, py);
      if (!top) return "nothing";
      if (element === top || element.contains(top)) return "itself";
      const label = top.closest("label");
      if (label && (label as HTMLLabelElement).control === element) return "itself";
      return top.outerHTML.slice(0, 120);
    },
    [x, y] as const,
  );
  expect(onTop, "what is under the pointer at the control's centre").toBe("itself");
  await page.mouse.click(x, y);
}

/** Lists a new style of the signed-in creator's through the /listings form (an Extended licence too when priced); answers nothing. */
export async function listStyle(
  page: Page,
  style: string,
  title: string,
  price: string,
  tiers: { extendedPrice?: string } = {},
) {
  const styledId = await makeStyledImage(page, style);
  await page.goto(`/listings?stylizedImageId=${encodeURIComponent(styledId)}`);
  const form = page.getByTestId("list-on-marketplace-form");
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Price (USD)").fill(price);
  if (tiers.extendedPrice)
    await form.getByLabel("Extended license price (USD, optional)").fill(tiers.extendedPrice);
  await form.getByTestId("list-on-marketplace").click();
  await expect(page.getByTestId("toast")).toContainText("Listed on the marketplace");
}

/** The library link of the newest receipt to `email` in this run's outbox. */
export async function receiptLibraryLink(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        for (const file of outboxFiles(E2E_OUTBOX).reverse()) {
          const mail = await readEml(file);
          if (!addressesOf(mail.to).includes(email)) continue;
          if (mail.subject !== "Your Selfie Studio receipt") continue;
          // Never a download link in a mail: only the library.
          expect(`${mail.text}${mail.html}`).not.toContain("/downloads/");
          link = /https?:\/\/\S+\/library\?token=\S+/.exec(mail.text ?? "")?.[0];
          return link;
        }
        return undefined;
      },
      { timeout: 15_000, message: `a receipt to ${email} in ${E2E_OUTBOX}` },
    )
    .toBeTruthy();
  return link!;
}
