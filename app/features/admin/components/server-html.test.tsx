import { describe, expect, it } from "vitest";
import { serverHtml } from "#tests/setup/server-html";
import { AccessDenied } from "~/features/admin/components/access-denied";
import { UserDetailsDialog } from "~/features/admin/components/user-details-dialog";
import { RefundConfirmation } from "~/features/admin/components/refund-confirmation";
import { BanConfirmation } from "~/features/admin/components/ban-confirmation";
import { adminOrder, adminUser } from "~/features/admin/components/test-support";

/** What the server sends: the no-JavaScript versions of the admin screens' dynamic parts. */

const CORA = adminUser({ imageCount: 7, earnings: 42.5 });

describe("server HTML", () => {
  it("renders the User Details dialog as a plain modal with a Close link", async () => {
    const html = await serverHtml(
      <UserDetailsDialog user={CORA} closeHref="/admin?q=cora" />,
      "/admin?view=u1",
    );
    expect(html).toContain('role="dialog"');
    expect(html).toContain('aria-modal="true"');
    expect(html).toMatch(/aria-labelledby="user-details-title"/);
    expect(html).toMatch(/<h2 id="user-details-title"[^>]*>User Details<\/h2>/);
    expect(html).toContain("$42.50");
    expect(html).toContain("3/4/2026");
    expect(html).toMatch(/<a[^>]*href="\/admin\?q=cora"[^>]*>Close<\/a>/);
  });

  it("renders the refund confirmation as a plain modal: a POST form to the same page and a Cancel link", async () => {
    const order = adminOrder({ provider: "stripe", items: [] });
    const html = await serverHtml(
      <RefundConfirmation order={order} closeHref="/admin?orderStatus=paid" />,
      "/admin?orderStatus=paid&refund=ord_123",
    );
    expect(html).toContain('role="dialog"');
    expect(html).toMatch(
      /<h2 id="refund-title"[^>]*>Refund order <span[^>]*>ord_123<\/span>\?<\/h2>/,
    );
    expect(html).toMatch(
      /<form method="post" action="\/admin\?orderStatus=paid&amp;refund=ord_123"/,
    );
    expect(html).toContain('<input type="hidden" name="intent" value="refund-order"/>');
    expect(html).toContain('<input type="hidden" name="orderId" value="ord_123"/>');
    expect(html).toMatch(/<textarea[^>]*name="reason"/);
    expect(html).toContain("bea@example.com");
    expect(html).toMatch(/<button type="submit"[^>]*>Refund \$25\.00<\/button>/);
    expect(html).toMatch(/<a[^>]*href="\/admin\?orderStatus=paid"[^>]*>Cancel<\/a>/);
  });

  it("renders the ban confirmation as a plain modal: a POST form with the ban intent and a Cancel link", async () => {
    const html = await serverHtml(
      <BanConfirmation user={CORA} closeHref="/admin?q=cora" />,
      "/admin?q=cora&ban=u1",
    );
    expect(html).toContain('role="dialog"');
    expect(html).toMatch(/<h2 id="ban-title"[^>]*>Ban <span[^>]*>Cora Creator<\/span>\?<\/h2>/);
    expect(html).toMatch(/<form method="post" action="\/admin\?q=cora&amp;ban=u1"/);
    expect(html).toContain('<input type="hidden" name="intent" value="ban"/>');
    expect(html).toContain('<input type="hidden" name="userId" value="u1"/>');
    expect(html).toContain("signed out everywhere");
    expect(html).toMatch(/<button type="submit"[^>]*>Ban user<\/button>/);
    expect(html).toMatch(/<a[^>]*href="\/admin\?q=cora"[^>]*>Cancel<\/a>/);
  });

  it("gives Access Denied a meta refresh to / for browsers without JavaScript", async () => {
    const html = await serverHtml(<AccessDenied />, "/admin");
    expect(html).toContain("Access Denied");
    expect(html).toMatch(/<noscript><meta http-equiv="refresh" content="1;url=\/"\/?><\/noscript>/);
  });
});
