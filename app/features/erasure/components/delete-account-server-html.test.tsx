import { describe, expect, it } from "vitest";
import { serverHtml } from "#tests/setup/server-html";
import { DeleteAccountPanel } from "~/features/erasure/components/delete-account-panel";

/** What the server sends: the Delete account tab works without JavaScript. */
function panelHtml(url: string, confirmOpen: boolean) {
  return serverHtml(
    <DeleteAccountPanel email="cora@example.com" confirmOpen={confirmOpen} lastResult={null} />,
    url,
  );
}

describe("Delete account, server HTML", () => {
  it("links to the confirmation, which is a plain POST form with the password, the box and a Cancel link", async () => {
    const closed = await panelHtml("/settings/delete", false);
    expect(closed).toMatch(/<a[^>]*href="\/settings\/delete\?confirm=1"/);
    expect(closed).not.toContain('role="dialog"');
    const open = await panelHtml("/settings/delete?confirm=1", true);
    expect(open).toContain('role="dialog"');
    expect(open).toMatch(/<form[^>]*method="post"[^>]*action="\/settings\/delete\?confirm=1"/);
    expect(open).toMatch(
      /<input[^>]*type="checkbox"[^>]*name="confirm"|<input[^>]*name="confirm"[^>]*type="checkbox"/,
    );
    expect(open).toMatch(/<input[^>]*type="password"/);
    expect(open).toMatch(/<a[^>]*href="\/settings\/delete"[^>]*>Cancel<\/a>/);
  });
});
