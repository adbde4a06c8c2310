// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { DownloadList, spentLinkReason } from "~/features/market/library/components/download-list";
import { AvailableDownloadsCard } from "~/features/market/checkout/components/payment-monitor-cards";
import { paymentResult } from "~/features/market/catalog/components/test-support";

afterEach(cleanup);

const NOW = Date.parse("2026-11-24T12:00:00.000Z");
const item = {
  style: "anime",
  filename: "a.jpg",
  downloadUrl: "/downloads/t",
  expiresAt: "2026-11-30T00:00:00.000Z",
  downloadsLeft: 3,
};

describe("DownloadList", () => {
  it("offers Download while the link works", () => {
    render(<DownloadList downloads={[item]} now={NOW} />);
    expect(screen.getByRole("link", { name: "Download a.jpg" })).toHaveAttribute(
      "href",
      "/downloads/t",
    );
    expect(screen.queryByTestId("download-spent")).toBeNull();
  });

  it.each([
    [{ downloadsLeft: 0 }, "Download limit reached"],
    [{ expiresAt: "2026-11-20T00:00:00.000Z" }, "Link expired"],
  ])(
    "a spent link (%j) says %s and points to the library instead of Download",
    (change, reason) => {
      render(<DownloadList downloads={[{ ...item, ...change }]} now={NOW} />);
      expect(screen.queryByRole("link", { name: "Download a.jpg" })).toBeNull();
      expect(screen.getByTestId("download-spent")).toHaveTextContent(reason);
      expect(
        screen.getByRole("link", { name: "Get a fresh link from your library" }),
      ).toHaveAttribute("href", "/library");
    },
  );

  it("the payment monitor's downloads follow the same rule", () => {
    const result = paymentResult({
      success: true,
      paymentStatus: "completed",
      downloads: [{ ...item, downloadsLeft: 0 }],
    });
    render(<AvailableDownloadsCard result={result} />);
    expect(screen.getByText("Download limit reached")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Download a.jpg" })).toBeNull();
  });

  it("without the counts, the link is offered (nothing known against it)", () => {
    expect(spentLinkReason({}, NOW)).toBeNull();
  });
});
