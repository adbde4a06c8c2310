import { describe, expect, it, vi } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { plainContext } from "~/infra/call-context.server";
import { invoke } from "~/infra/procedure.server";
import { TestCheckoutProvider } from "~/infra/payments/test-checkout.server";
import { requestPasswordReset } from "~/features/accounts/passwords/procedures.server";
import { payTestCheckout } from "~/features/market/checkout/procedures.server";
import { requestLibraryLink } from "~/features/market/library/procedures.server";
import { attachCheckoutSession, createPendingOrder } from "~/features/market/orders/orders.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { queuedMailTo } from "#tests/setup/mail-queue";
import { testTies } from "#tests/setup/ties";

/**
 * Links in mail point only at the origin the server is configured with: a
 * request made at another host (a forged Host or X-Forwarded-Host header) never
 * chooses where a reset link, a library link, a receipt or a sale notice
 * points. This test server has no PUBLIC_URL and runs on PORT 3000 (the
 * default), so its configured origin is http://localhost:3000.
 */
const CONFIGURED = "http://localhost:3000";
const FORGED = "http://evil.example:4444";

let address = 0;
/** A call made at the forged host, as a request with that Host header would be. */
const forgedCall = (config = getConfig()) =>
  plainContext(FORGED, { ties: testTies, config, clientIp: `198.51.100.${++address}` });

const linksIn = (text: string) =>
  [...text.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((match) => match[0]);

/** A paid order of `email`, paid through the test checkout by a call made at the forged host. */
async function paidAtForgedHost(email: string) {
  const db = getDb();
  const creator = await createTestUser();
  const { listing } = await createListing(creator.user.id);
  const { order } = await createPendingOrder(db, {
    provider: "test",
    customer: { name: "Bea Buyer", email },
    listingIds: [listing.id],
    now: new Date(),
  });
  const session = await new TestCheckoutProvider().createCheckoutSession({
    orderId: order.id,
    customerEmail: email,
    currency: order.currency,
    origin: FORGED,
    items: [],
  });
  await attachCheckoutSession(db, order.id, session, new Date());
  await invoke(payTestCheckout, null, { sessionId: session.sessionId }, forgedCall());
  return { creator: creator.user };
}

describe("links in mail", () => {
  it("a password reset asked for at a forged host links to the configured origin", async () => {
    const { user } = await createTestUser({ email: "reset-forged@example.com" });
    await invoke(requestPasswordReset, null, { email: user.email }, forgedCall());
    const [mail] = await queuedMailTo(user.email);
    expect(linksIn(mail!.text).length).toBeGreaterThan(0);
    for (const link of [...linksIn(mail!.text), ...linksIn(mail!.html)])
      expect(link.startsWith(`${CONFIGURED}/`), link).toBe(true);
    expect(mail!.text + mail!.html).not.toContain("evil.example");
  });

  it("the receipt, the sale notice and a library link, all started at a forged host, link to the configured origin", async () => {
    const email = "buyer-forged@example.com";
    const { creator } = await paidAtForgedHost(email);
    await invoke(requestLibraryLink, null, { email }, forgedCall());
    const buyerMail = await queuedMailTo(email);
    const creatorMail = await queuedMailTo(creator.email);
    expect(buyerMail).toHaveLength(2);
    expect(creatorMail).toHaveLength(1);
    for (const mail of [...buyerMail, ...creatorMail]) {
      expect(linksIn(mail.text).length, mail.subject).toBeGreaterThan(0);
      for (const link of [...linksIn(mail.text), ...linksIn(mail.html)])
        expect(link.startsWith(`${CONFIGURED}/`), `${mail.subject}: ${link}`).toBe(true);
      expect(mail.text + mail.html, mail.subject).not.toContain("evil.example");
    }
  });

  it("without a configured origin, a reset or library link mail is not sent, and the log says why", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    // A production server without PUBLIC_URL (the start refuses it; a config built by hand can still say so).
    const unconfigured = {
      ...getConfig(),
      isProduction: true,
      NODE_ENV: "production" as const,
      PUBLIC_URL: undefined,
    };
    const { user } = await createTestUser({ email: "reset-unconfigured@example.com" });
    const answer = await invoke(
      requestPasswordReset,
      null,
      { email: user.email },
      forgedCall(unconfigured),
    );
    expect(answer.message).toBeTruthy();
    const email = "buyer-unconfigured@example.com";
    await paidAtForgedHost(email);
    const before = (await queuedMailTo(email)).length;
    await invoke(requestLibraryLink, null, { email }, forgedCall(unconfigured));
    expect(await queuedMailTo(user.email)).toEqual([]);
    expect(await queuedMailTo(email)).toHaveLength(before);
    const logged = warn.mock.calls.map((args) => args.join(" "));
    expect(logged.filter((line) => /not sent/.test(line) && /PUBLIC_URL/.test(line))).toHaveLength(
      2,
    );
  });
});
