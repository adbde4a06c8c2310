import { shortPageHtml, shortPageResponse } from "~/web/short-page.server";

/** Whether a request is a browser's page load (it accepts HTML), not an API client or a script. */
export function wantsHtml(request: Request): boolean {
  return (request.headers.get("Accept") ?? "").toLowerCase().includes("text/html");
}

/**
 * GET /downloads/{token} refused (unknown, expired or used up, or suspended by
 * a dispute), for a browser: the same status with a page that says why and
 * points to the library, where the buyer can have a fresh link emailed.
 */
export function deniedDownloadPage(reason: string, status = 403): Response {
  const html = shortPageHtml(
    "This download link does not work",
    [
      reason,
      "Your purchases are still yours: open your library and we will email you a fresh link to download them.",
    ],
    { href: "/library", label: "Go to your library" },
  );
  return shortPageResponse(html, status);
}
