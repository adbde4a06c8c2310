import path from "node:path";
import { addressesOf, outboxFiles, readEml } from "../setup/mail";
import { expect, expectAccessible, signIn, signOut, test } from "./fixtures";

/**
 * The closed beta's waitlist end to end, with JavaScript on and off: a
 * visitor follows "Start Earning Today" to the Register tab, joins the
 * waitlist (a confirmation lands in the e2e server's outbox; asking again
 * says the address is on the list), the admin invites the address from the
 * portal's Waitlist, and the invitation's link opens registration for that
 * address only: names and a password create the account and sign in. The
 * link then works no more.
 */

const port = Number(process.env.E2E_PORT ?? 3100);
const OUTBOX = path.resolve("tests/.tmp", `e2e-${port}`, "outbox");

/** The first message to `email` with `subject`, polled from the outbox. */
async function mailTo(email: string, subject: string) {
  let found: Awaited<ReturnType<typeof readEml>> | undefined;
  await expect
    .poll(
      async () => {
        for (const file of outboxFiles(OUTBOX).reverse()) {
          const mail = await readEml(file);
          if (addressesOf(mail.to).includes(email) && mail.subject === subject) {
            found = mail;
            return true;
          }
        }
        return false;
      },
      { timeout: 15_000, message: `"${subject}" to ${email} in ${OUTBOX}` },
    )
    .toBe(true);
  return found!;
}

test.describe("the waitlist", () => {
  test("from the landing page's button to an invitation to an account", async ({
    page,
    javaScriptOn,
  }) => {
    const email = `waiting-${javaScriptOn ? "js" : "nojs"}-${Date.now()}@example.com`;

    // A visitor: the call to action leads to the waitlist on the Register tab, under the closed notice.
    await page.goto("/");
    await page.getByRole("link", { name: "Start Earning Today" }).first().click();
    await expect(page).toHaveURL(/\/auth\?tab=register#waitlist$/);
    await expect(page.getByTestId("registration-closed")).toBeVisible();
    await expectAccessible(page, javaScriptOn);
    const form = page.locator("form#waitlist-form");
    await form.getByLabel("Email").fill(email);
    await form.getByRole("button", { name: "Join the waitlist" }).click();
    await expect(page.getByTestId("waitlist-outcome")).toHaveText(
      "You're on the waitlist. We sent a confirmation to that address, and we'll email you an invitation when a spot opens.",
    );
    expect((await mailTo(email, "You're on the Selfie Studio waitlist")).text).toContain(
      "beta waitlist",
    );

    // Asking again is answered the same: the answer never tells whether an address was on the list.
    await page.locator("form#waitlist-form").getByLabel("Email").fill(email.toUpperCase());
    await page
      .locator("form#waitlist-form")
      .getByRole("button", { name: "Join the waitlist" })
      .click();
    await expect(page.getByTestId("waitlist-outcome")).toHaveText(
      "You're on the waitlist. We sent a confirmation to that address, and we'll email you an invitation when a spot opens.",
    );

    // The admin invites the address from the portal's Waitlist.
    await signIn(page, "admin");
    await page.goto("/admin#waitlist");
    const entry = page.getByTestId("waitlist-entry").filter({ hasText: email });
    await expect(entry.getByTestId("waitlist-state")).toHaveText("Waiting");
    await expectAccessible(page, javaScriptOn);
    await entry.getByRole("button", { name: `Invite ${email}` }).click();
    await expect(
      page.getByTestId("waitlist-entry").filter({ hasText: email }).getByTestId("waitlist-state"),
    ).toHaveText("Invited");
    await signOut(page);

    // The invitation's link opens registration for that address only.
    const invitation = await mailTo(email, "Your invitation to Selfie Studio");
    expect(invitation.text).toContain("within 7 days");
    const link = /https?:\/\/\S+\/auth\?tab=register&invite=\S+/.exec(invitation.text ?? "")?.[0];
    expect(link).toBeDefined();
    await page.goto(link!);
    const invited = page.getByTestId("invited-register");
    await expect(invited).toContainText(`This invitation creates the account for ${email}.`);
    await expect(invited.getByLabel("Email")).toHaveCount(0);
    await expectAccessible(page, javaScriptOn);
    const registration = page.locator("form#register-invited");
    await registration.getByLabel("First Name").fill("Wren");
    await registration.getByLabel("Last Name").fill("Waiting");
    await registration.getByLabel("Password").fill("a-fresh-passphrase");
    await registration.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId("nav-user").first()).toContainText("Wren");

    // Single use: the link opens nothing any more.
    await signOut(page);
    await page.goto(link!);
    await expect(page.getByTestId("invitation-invalid")).toHaveText(
      "This invitation link is not valid or was already used. Ask for a new invitation.",
    );
    await expect(page.locator("form#register-invited")).toHaveCount(0);
  });
});
