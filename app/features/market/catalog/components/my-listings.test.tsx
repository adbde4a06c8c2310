// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { serverHtml as staticHtml } from "#tests/setup/server-html";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { useLocation } from "@remix-run/react";
import { MyListings, type MyListing } from "~/features/market/catalog/components/my-listings";

afterEach(cleanup);

const LIVE: MyListing = {
  id: "l1",
  stylizedImageId: "sty1",
  title: "Harbour at Dusk",
  style: "cartoon",
  price: "25",
  status: "active",
  previewUrl: null,
  views: 3,
  platforms: [{ platform: "marketplace", status: "live", url: "/marketplace?listing=l1" }],
};
const WITHDRAWN: MyListing = {
  ...LIVE,
  id: "l2",
  title: "Old Portrait",
  status: "withdrawn",
  platforms: [],
};

/** What the server sends: the page as a browser without JavaScript gets it. */
function serverHtml(element: ReactNode, url: string) {
  return staticHtml(element, url, { withoutTextMarkers: true });
}

describe("My listings: Withdraw asks first", () => {
  it("without JavaScript, Withdraw is a link to ?confirmWithdraw=<id>, and nothing on the list posts a withdrawal", async () => {
    const html = await serverHtml(<MyListings listings={[LIVE, WITHDRAWN]} />, "/listings");
    expect(html).toMatch(
      /<a[^>]*href="\/listings\?confirmWithdraw=l1"[^>]*>Withdraw… <span class="sr-only">“Harbour at Dusk”<\/span><\/a>/,
    );
    expect(html).not.toContain('value="withdraw"');
    expect(html).not.toContain('role="dialog"');
    // A withdrawn listing offers no Withdraw.
    expect(html).not.toContain("confirmWithdraw=l2");
  });

  it("without JavaScript, ?confirmWithdraw=<id> shows a panel whose button posts the withdrawal and whose Cancel is a link back", async () => {
    const html = await serverHtml(
      <MyListings listings={[LIVE, WITHDRAWN]} />,
      "/listings?confirmWithdraw=l1",
    );
    const panel = html.slice(html.indexOf('role="dialog"'));
    expect(html).toContain('role="dialog"');
    expect(panel).toContain("Withdraw “Harbour at Dusk”?");
    expect(panel).toMatch(/<form[^>]*method="post"[^>]*action="\/listings"/);
    expect(panel).toContain('<input type="hidden" name="intent" value="withdraw"/>');
    expect(panel).toContain('<input type="hidden" name="listingId" value="l1"/>');
    expect(panel).toContain('<input type="hidden" name="redirectTo" value="/listings"/>');
    expect(panel).toMatch(/<button type="submit"[^>]*>Withdraw<\/button>/);
    expect(panel).toMatch(/<a[^>]*href="\/listings"[^>]*>Cancel<\/a>/);
  });

  it("an unknown or already withdrawn listing in ?confirmWithdraw= shows no panel", async () => {
    for (const id of ["nope", "l2"]) {
      const html = await serverHtml(
        <MyListings listings={[LIVE, WITHDRAWN]} />,
        `/listings?confirmWithdraw=${id}`,
      );
      expect(html).not.toContain('role="dialog"');
    }
  });

  it("with JavaScript, Withdraw opens a dialog: Cancel closes it, and only its button posts the withdrawal", async () => {
    const posted: Record<string, FormDataEntryValue>[] = [];
    renderWithRemix(
      [
        {
          path: "/listings",
          Component: function ListingsStub() {
            const location = useLocation();
            return (
              <>
                <p data-testid="location">{location.search}</p>
                <MyListings listings={[LIVE, WITHDRAWN]} />
              </>
            );
          },
          action: async ({ request }) => {
            posted.push(Object.fromEntries(await request.formData()));
            return null;
          },
        },
      ],
      { url: "/listings" },
    );
    const user = userEvent.setup();

    await user.click(screen.getByRole("link", { name: "Withdraw… “Harbour at Dusk”" }));
    expect(posted).toEqual([]);
    let dialog = await screen.findByRole("dialog", { name: "Withdraw “Harbour at Dusk”?" });
    expect(screen.getByTestId("location")).toHaveTextContent("?confirmWithdraw=l1");
    expect(dialog).toHaveTextContent("It leaves the marketplace at once");

    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getByTestId("location")).toBeEmptyDOMElement();
    expect(posted).toEqual([]);

    await user.click(screen.getByRole("link", { name: "Withdraw… “Harbour at Dusk”" }));
    dialog = await screen.findByRole("dialog", { name: "Withdraw “Harbour at Dusk”?" });
    await user.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    await waitFor(() =>
      expect(posted).toEqual([{ intent: "withdraw", listingId: "l1", redirectTo: "/listings" }]),
    );
  });
});
