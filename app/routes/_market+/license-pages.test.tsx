// @vitest-environment jsdom
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithRemix } from "#tests/setup/render-route";
import type { OrderLicense } from "~/features/market/orders/licenses.server";
import LicensePage from "~/routes/_market+/licenses.$licenseId";
import { LICENSES } from "~/lib/license-terms";

/** A paid order's license, its names typed in Hebrew and Arabic (right-to-left scripts). */
const LICENSE: OrderLicense = {
  licenseName: "Standard Commercial License",
  orderId: "ord_1",
  buyer: { name: "דנה כהן", company: "شركة النور" },
  purchasedAt: "2026-03-04T12:00:00.000Z",
  currency: "usd",
  total: "35.00",
  testMode: false,
  revokedAt: null,
  suspended: false,
  licenses: [
    { edition: "standard", name: "Standard Commercial License", terms: LICENSES.standard.terms },
  ],
  items: [
    {
      title: "חוף הים (2)",
      style: "anime",
      price: "35.00",
      licenseType: "standard",
      licenseName: "Standard Commercial License",
      creatorFirstName: "יעל",
      listingId: "l1",
    },
  ],
};

function renderLicense(license: OrderLicense) {
  renderWithRemix(
    [{ path: "/licenses/:licenseId", loader: () => license, Component: LicensePage }],
    { url: "/licenses/lic_1" },
  );
}

describe("/licenses/{licenseId}", () => {
  it("isolates every name and title it puts in a sentence (<bdi>), so a right-to-left one keeps the punctuation in place", async () => {
    renderLicense(LICENSE);
    const licensee = await screen.findByTestId("licensee");
    const names = Array.from(licensee.querySelectorAll("bdi")).map((bdi) => bdi.textContent);
    expect(names).toEqual(["דנה כהן", "شركة النور"]);
    // The comma between them is the page's own, outside either name.
    expect(within(licensee).getByText(/,/).tagName).not.toBe("BDI");
    expect(licensee).toHaveTextContent("דנה כהן, شركة النور");

    const title = screen.getByTestId("licensed-title");
    expect(title.tagName).toBe("BDI");
    expect(title).toHaveTextContent("חוף הים (2)");
    const creator = screen.getByTestId("licensed-creator");
    expect(creator.tagName).toBe("BDI");
    expect(creator).toHaveTextContent("יעל");
    expect(creator.parentElement).toHaveTextContent("(Anime style, by יעל)");
  });

  it("a buyer without a company: the name alone, isolated", async () => {
    renderLicense({ ...LICENSE, buyer: { name: "Bea Buyer", company: null } });
    const licensee = await screen.findByTestId("licensee");
    expect(Array.from(licensee.querySelectorAll("bdi")).map((bdi) => bdi.textContent)).toEqual([
      "Bea Buyer",
    ]);
    expect(licensee).not.toHaveTextContent(",");
  });
});
