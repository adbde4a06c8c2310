import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  renderInvitationMail,
  renderWaitlistJoinedMail,
} from "~/features/accounts/registration/waitlist-mail.server";
import {
  renderConfirmEmailChangeMail,
  renderEmailChangeNoticeMail,
  renderEmailTakenNoticeMail,
} from "~/features/accounts/profile/email-change-mail.server";
import { renderExportReadyMail } from "~/features/accounts/exports/account-export-mail.server";
import { renderResetPasswordMail } from "~/features/accounts/passwords/reset-password-mail.server";
import {
  renderAlreadyRegisteredMail,
  renderCreateAccountMail,
} from "~/features/accounts/registration/registration-mail.server";
import { renderLibraryLinkMail } from "~/features/market/library/library-link-mail.server";
import { renderSaleNoticeMail } from "~/features/market/orders/sale-notice-mail.server";
import { renderRefundNoticeMail } from "~/features/market/orders/refund-notice-mail.server";
import { renderReceiptMail } from "~/features/market/orders/receipt-mail.server";
import {
  renderFollowConfirmMail,
  renderFollowDigestMail,
} from "~/features/market/follows/follow-mail.server";

/**
 * Every mail template, rendered with fixed inputs (each branch of each), must
 * give exactly the subject, text and HTML in mail-templates.expected.json: the
 * messages as they were written before the templates shared one builder.
 * Changing a message on purpose means changing that file with it.
 */

const link = "https://selfie.example/a?b=1&c=<2>";
const other = "https://selfie.example/settings?x=\"y\"&z='w'";
const item = (title: string, style: string, priceCents: number) => ({ title, style, priceCents });
const sold = (saleReference: string, title: string, priceCents: number) => ({
  saleReference,
  title,
  style: "anime",
  priceCents,
  shareCents: Math.round(priceCents * 0.85),
});
const refund = { orderId: "ord_<1>", refundedAt: "2026-11-24T10:00:00.000Z", totalCents: 2500 };
const items = [item("Sunset & <Sea>", "cartoon", 1200), item("Portrait", "fantasy", 1300)];
const receipt = { orderId: "ord_&9", paidAt: "2026-11-23T23:59:00.000Z", items, totalCents: 2500 };

const cases: Record<string, () => { subject: string; text: string; html: string }> = {
  waitlistJoined: () => renderWaitlistJoinedMail({ total: 200, left: 73 }),
  invitation: () => renderInvitationMail({ link }),
  confirmEmailChange: () =>
    renderConfirmEmailChangeMail({ firstName: "Ada <b>", newEmail: "a&b@example.com", link }),
  confirmEmailChangeNoName: () =>
    renderConfirmEmailChangeMail({ firstName: "  ", newEmail: "a@example.com", link }),
  emailChangeNotice: () =>
    renderEmailChangeNoticeMail({
      firstName: "Ada\nLovelace\u202e",
      newEmail: "new<x>@example.com",
      settingsLink: other,
      resetLink: link,
    }),
  emailTakenNotice: () =>
    renderEmailTakenNoticeMail({ firstName: "Ada", signInLink: other, resetLink: link }),
  exportReady: () => renderExportReadyMail({ firstName: "  Ada & Co ", settingsLink: link }),
  exportReadyNoName: () => renderExportReadyMail({ firstName: "", settingsLink: link }),
  resetPassword: () => renderResetPasswordMail({ firstName: " <Ada> ", link }),
  resetPasswordNoName: () => renderResetPasswordMail({ firstName: " ", link }),
  createAccount: () => renderCreateAccountMail({ firstName: "x".repeat(60), link }),
  alreadyRegistered: () =>
    renderAlreadyRegisteredMail({ firstName: "", signInLink: other, resetLink: link }),
  libraryLink: () => renderLibraryLinkMail({ libraryUrl: link }),
  saleNoticeOne: () =>
    renderSaleNoticeMail({
      creatorName: "Cleo <C>",
      paidAt: "2026-11-24T00:30:00.000Z",
      items: [sold("S-1&", "Sunset & <Sea>", 1999)],
      testMode: false,
      testSalesExcluded: true,
      dashboardUrl: link,
    }),
  saleNoticeTestExcluded: () =>
    renderSaleNoticeMail({
      creatorName: "Cleo",
      paidAt: "2026-01-02T12:00:00.000Z",
      items: [sold("S-1", "One", 1000), sold("S-2", "Two", 2500)],
      testMode: true,
      testSalesExcluded: true,
      dashboardUrl: other,
    }),
  saleNoticeTestCounted: () =>
    renderSaleNoticeMail({
      creatorName: "Cleo",
      paidAt: "2026-01-02T12:00:00.000Z",
      items: [sold("S-3", "Three", 500)],
      testMode: true,
      testSalesExcluded: false,
      dashboardUrl: other,
    }),
  refundFull: () =>
    renderRefundNoticeMail({
      ...refund,
      customerName: "Bea <Buyer>",
      amountCents: 2500,
      refundedTotalCents: 2500,
      items,
      testMode: false,
    }),
  refundPartialTest: () =>
    renderRefundNoticeMail({
      ...refund,
      customerName: "Bea\tBuyer " + "y".repeat(50),
      amountCents: 1000,
      refundedTotalCents: 1200,
      items: items.slice(0, 1),
      testMode: true,
    }),
  receipt: () =>
    renderReceiptMail({
      ...receipt,
      customerName: "Bea & <Buyer>",
      testMode: false,
      libraryUrl: link,
    }),
  followConfirm: () =>
    renderFollowConfirmMail({
      creatorName: "Ada <b>\nLovelace",
      confirmLink: link,
      unsubscribeLink: other,
    }),
  followDigestOne: () =>
    renderFollowDigestMail({
      creatorName: "Ada & Co",
      storefrontLink: other,
      listings: [{ title: "Sunset & <Sea>", priceCents: 1200, link }],
      unsubscribeLink: other,
    }),
  followDigestMany: () =>
    renderFollowDigestMail({
      creatorName: "@ada",
      storefrontLink: other,
      listings: [
        { title: "Sunset\r\nBcc: x@example.com", priceCents: 1200, link },
        { title: "Portrait", priceCents: 99, link: other },
      ],
      unsubscribeLink: link,
    }),
  receiptTestSoldIn: () =>
    renderReceiptMail({
      ...receipt,
      customerName: "Bea\r\nBcc: x@example.com",
      testMode: true,
      libraryUrl: other,
      soldIn: "the Shopify store <x>.myshopify.com (order #1001)",
    }),
};

const expected = JSON.parse(
  readFileSync(new URL("./mail-templates.expected.json", import.meta.url), "utf8"),
) as Record<string, { subject: string; text: string; html: string }>;

describe("mail templates", () => {
  it("has an expected message for each case and no other", () => {
    expect(Object.keys(expected).sort()).toEqual(Object.keys(cases).sort());
  });

  for (const [name, render] of Object.entries(cases)) {
    it(`renders ${name} exactly as before`, () => {
      const mail = render();
      expect(Object.keys(mail).sort()).toEqual(["html", "subject", "text"]);
      expect(mail.subject).toBe(expected[name].subject);
      expect(mail.text).toBe(expected[name].text);
      expect(mail.html).toBe(expected[name].html);
    });
  }
});
