import { shortPageHtml, shortPageResponse } from "~/web/short-page.server";

/** GET /downloads/{token} of a refunded order: 410 Gone, with a page a buyer can read. */
export function refundedDownloadPage(refundedAt: string | null): Response {
  const when = refundedAt
    ? ` on ${new Date(refundedAt).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" })}`
    : "";
  const html = shortPageHtml(
    "This order was refunded",
    [
      `This order was refunded${when}, so its download links no longer work and its license has been revoked.`,
    ],
    { href: "/marketplace", label: "Back to the Marketplace" },
  );
  return shortPageResponse(html, 410);
}
