import path from "node:path";
import { addressesOf, outboxFiles, readEml } from "../setup/mail";
import {
  ACCOUNTS,
  TAP_DEVICES,
  createAccount,
  expect,
  expectAccessible,
  makeStyledImage,
  runTag,
  signIn,
  tap,
  test,
  tokenFor,
} from "./fixtures";

/**
 * Report and takedown, end to end, on a desktop and a phone, with JavaScript
 * on and off: a new creator lists a portrait; a visitor with no account taps
 * "Report" on its page, reports it as an intimate image and confirms by the
 * link mailed to them (read from the newest .eml in the e2e server's outbox);
 * the listing is hidden at once; the admin removes it from the Reports section
 * with a note; and the listing page answers 404. A new creator each run, so
 * the upheld reports never add up to a suspension of an account other specs use.
 */

const port = Number(process.env.E2E_PORT ?? 3100);
const OUTBOX = path.resolve("tests/.tmp", `e2e-${port}`, "outbox");

/** The confirmation link of the first report mail to `email` written after `known`. */
async function confirmationLink(email: string, known: Set<string>): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        for (const file of outboxFiles(OUTBOX).filter((name) => !known.has(name))) {
          const mail = await readEml(file);
          if (!addressesOf(mail.to).includes(email)) continue;
          expect(mail.subject).toBe("Confirm your report to Selfie Studio");
          link = /https?:\/\/\S+\/reports\/confirm\?token=[\w-]+/.exec(mail.text ?? "")?.[0];
          return link;
        }
        return undefined;
      },
      { timeout: 15_000, message: `a report confirmation mail to ${email} in ${OUTBOX}` },
    )
    .toBeTruthy();
  return link!;
}

for (const device of TAP_DEVICES) {
  test.describe(`reporting a listing on a ${device.name}`, () => {
    test.use(device.use);

    test("a visitor reports it, confirms by mail, the admin removes it, and its page answers 404", async ({
      page,
      request,
      javaScriptOn,
    }) => {
      test.setTimeout(180_000);
      const tag = `${device.name}-${runTag(javaScriptOn)}`;
      const creator = {
        email: `reported-${tag}@e2e.test`,
        password: `reported-${tag}-password`,
        firstName: "Rita",
        lastName: "Reported",
      };
      await createAccount(request, creator);

      // The creator agrees to face processing, styles the portrait and lists it.
      await signIn(page, creator);
      const consent = await page.request.post("/api/account/consent", {
        data: { faceProcessing: true },
      });
      expect(consent.status()).toBe(200);
      const styledId = await makeStyledImage(page, "cartoon");
      const title = `Reported ${tag}`;
      await page.goto(`/listings?stylizedImageId=${encodeURIComponent(styledId)}`);
      const form = page.getByTestId("list-on-marketplace-form");
      await form.getByLabel("Title").fill(title);
      await form.getByLabel("Price (USD)").fill("12");
      await form.getByTestId("list-on-marketplace").click();
      await expect(page.getByTestId("toast")).toContainText("Listed on the marketplace");
      const token = await tokenFor(request, creator);
      const listings = (await (
        await request.get("/api/marketplace-listings", {
          headers: { Authorization: `Bearer ${token}` },
        })
      ).json()) as { id: string; title: string }[];
      const listingId = listings.find((listing) => listing.title === title)?.id;
      expect(listingId, `the listing "${title}" among the creator's`).toBeTruthy();
      await page.context().clearCookies();

      // A visitor, signed out, reports it from its page.
      const listingPath = `/marketplace/${listingId}`;
      await page.goto(listingPath);
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await tap(page, page.getByRole("link", { name: "Report this image" }));
      await expect(page).toHaveURL(new RegExp(`/report\\?listing=${listingId}`));
      await expect(page.getByRole("heading", { name: "Report" }).first()).toBeVisible();
      await expectAccessible(page, javaScriptOn);
      const reporter = `reporter-${tag}@example.com`;
      await tap(page, page.getByRole("radio", { name: "Intimate or sexual image" }));
      await page.getByLabel("Email").fill(reporter);
      await page.getByLabel("Details").fill("This picture was made without my agreement.");
      const known = new Set(outboxFiles(OUTBOX));
      await tap(page, page.getByRole("button", { name: "Send report" }));
      await expect(page.getByTestId("report-sent")).toContainText(
        "We sent a link to your email: your report is taken up once you confirm it there.",
      );

      // The mailed link's page changes nothing until its button is pressed.
      const link = new URL(await confirmationLink(reporter, known));
      await page.goto(`${link.pathname}${link.search}`);
      await expect(page.getByRole("heading", { name: "Confirm your report" })).toBeVisible();
      expect((await page.request.get(listingPath)).status()).toBe(200);
      await tap(page, page.getByRole("button", { name: "Confirm report" }));
      await expect(page.getByTestId("report-confirmed")).toContainText("Your report is confirmed.");

      // An intimate report hides the listing at once, pending the decision.
      expect((await page.goto(listingPath))!.status()).toBe(404);

      // The admin removes it from the Reports section, with a note.
      await signIn(page, ACCOUNTS.admin);
      await page.goto("/admin#reports");
      const item = page
        .getByTestId("admin-reports")
        .getByTestId("report-item")
        .filter({ hasText: title });
      await expect(item).toContainText("Intimate or sexual image");
      await expect(item.getByTestId("report-time-left")).toContainText("left");
      await item
        .getByLabel("Note")
        .fill("Removed: an intimate image reported by the person shown.");
      await tap(page, item.getByRole("button", { name: `Remove ${title}` }));
      await expect(page).toHaveURL(/\/admin/);
      await expect(
        page.getByTestId("admin-reports").getByTestId("report-item").filter({ hasText: title }),
      ).toHaveCount(0);
      await page.context().clearCookies();

      // Gone for good: the page answers 404, and the creator was told.
      const gone = await page.goto(listingPath);
      expect(gone!.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
      await expect
        .poll(
          async () => {
            for (const file of outboxFiles(OUTBOX).filter((name) => !known.has(name))) {
              const mail = await readEml(file);
              if (addressesOf(mail.to).includes(creator.email)) return mail.subject;
            }
            return undefined;
          },
          { timeout: 15_000 },
        )
        .toBe("Removed from Selfie Studio after a report");
    });
  });
}
