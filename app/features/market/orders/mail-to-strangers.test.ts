import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { renderReceiptMail, receiptSubject } from "~/features/market/orders/receipt-mail.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { buyAtTestCheckout } from "#tests/setup/test-checkout";
import { testTies } from "#tests/setup/ties";
import { deliverOverSmtp } from "#tests/setup/mail-queue";

const { action: libraryLinkApi } = apiRoute("/api/library-link");
const { action: forgotPasswordApi } = apiRoute("/api/forgot-password");

/**
 * A receipt goes to whatever address the buyer typed, with the name they
 * typed in it; library links and password-reset links go to an address anyone
 * types too. None of them may become a way to send our mail, with someone's
 * words in it, to anyone: the buyer's text stays out of the subject and is
 * escaped, kept on one line and cut short in the body, and each recipient gets
 * at most a few of these messages an hour, whichever kind and whoever asks.
 */

const from = (clientIp: string) => ({ clientIp, nonce: "test", ties: testTies });

async function buyAs(
  listingId: string,
  customerInfo: { name: string; email: string; company?: string },
  clientIp: string,
) {
  await buyAtTestCheckout([listingId], customerInfo, { context: from(clientIp) });
}

describe("mail a stranger can make us send", () => {
  it("keeps the buyer's words out of the subject, and on one short escaped line in the body", async () => {
    const spam = `Claim your prize at https://evil.example/win <a href="https://evil.example">now</a>\r\nSubject: urgent\n\n${"Act now! ".repeat(40)}`;
    const mail = renderReceiptMail({
      customerName: spam,
      orderId: "order-1",
      paidAt: "2026-11-26T10:00:00.000Z",
      items: [{ title: "Sunset", style: "anime", priceCents: 2500 }],
      totalCents: 2500,
      testMode: false,
      libraryUrl: "http://localhost:3000/library?token=t",
    });
    expect(mail.subject).toBe(receiptSubject());
    const greeting = mail.text.split("\n")[0];
    expect(greeting.startsWith("Hello Claim your prize")).toBe(true);
    expect(greeting.length).toBeLessThanOrEqual(60);
    expect(mail.text).not.toContain("Subject: urgent");
    expect(mail.text).not.toContain("Act now!");
    expect(mail.html).not.toContain('<a href="https://evil.example">');
    expect(mail.html).not.toContain("Act now!");
    expect(mail.html).toContain("Hello <bdi>Claim your prize");
  });

  it("sends each recipient at most ten such messages an hour, receipts, library links and reset links together", async () => {
    const victim = "victim@example.com";
    await createTestUser({ email: victim });
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { price: 1 });
    // Many people (many addresses), each within its own limits, all aiming at one inbox.
    for (let i = 0; i < 6; i++)
      await buyAs(listing.id, { name: `Buyer ${i}`, email: victim }, `198.51.100.${i + 1}`);
    for (let i = 0; i < 4; i++) {
      const reset = await callRoute(
        forgotPasswordApi,
        makeRequest("/api/forgot-password", { json: { email: victim } }),
        {},
        from(`203.0.113.${i + 1}`),
      );
      expect(reset.status).toBe(202);
    }
    for (let i = 0; i < 3; i++) {
      const link = await callRoute(
        libraryLinkApi,
        makeRequest("/api/library-link", { json: { email: victim } }),
        {},
        from(`192.0.2.${i + 1}`),
      );
      expect(link.status).toBe(202);
    }
    // Past the limit the purchase itself still goes through; only its receipt is held back.
    await buyAs(listing.id, { name: "Late Buyer", email: victim }, "198.51.100.99");
    const paid = await getDb()
      .selectFrom("orders")
      .select("id")
      .where("customer_email", "=", victim)
      .where("status", "=", "paid")
      .execute();
    expect(paid).toHaveLength(7);

    const received = (await deliverOverSmtp()).filter((mail) => mail.envelope.to.includes(victim));
    expect(received).toHaveLength(10);
    const subjects = received.map((mail) => mail.parsed.subject ?? "");
    expect(subjects.filter((subject) => /receipt/i.test(subject))).toHaveLength(6);
    expect(subjects.filter((subject) => /password/i.test(subject))).toHaveLength(4);
  });
});
