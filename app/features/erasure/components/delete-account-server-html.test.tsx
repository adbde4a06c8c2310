import { describe, expect, it } from "vitest";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
} from "react-router-dom/server";
import { DeleteAccountPanel } from "~/features/erasure/components/delete-account-panel";

/** What the server sends: the Delete account tab works without JavaScript. */
async function serverHtml(url: string, confirmOpen: boolean) {
  const routes = [
    {
      path: "/settings/delete",
      element: (
        <DeleteAccountPanel email="cora@example.com" confirmOpen={confirmOpen} lastResult={null} />
      ),
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error("unexpected redirect");
  return renderToString(
    <StaticRouterProvider
      router={createStaticRouter(handler.dataRoutes, context)}
      context={context}
    />,
  );
}

describe("Delete account, server HTML", () => {
  it("links to the confirmation, which is a plain POST form with the password, the box and a Cancel link", async () => {
    const closed = await serverHtml("/settings/delete", false);
    expect(closed).toMatch(/<a[^>]*href="\/settings\/delete\?confirm=1"/);
    expect(closed).not.toContain('role="dialog"');
    const open = await serverHtml("/settings/delete?confirm=1", true);
    expect(open).toContain('role="dialog"');
    expect(open).toMatch(/<form[^>]*method="post"[^>]*action="\/settings\/delete\?confirm=1"/);
    expect(open).toMatch(
      /<input[^>]*type="checkbox"[^>]*name="confirm"|<input[^>]*name="confirm"[^>]*type="checkbox"/,
    );
    expect(open).toMatch(/<input[^>]*type="password"/);
    expect(open).toMatch(/<a[^>]*href="\/settings\/delete"[^>]*>Cancel<\/a>/);
  });
});
