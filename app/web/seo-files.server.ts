import { jsonResponse } from "~/web/http.server";

/** The sitemap and robots.txt change within minutes of a listing: crawlers and proxies may keep them five. */
export const SEO_FILE_CACHE_CONTROL = "public, max-age=300";

/** A sitemap file as XML, or the JSON 404 a missing part gets. */
export function xmlResponse(xml: string | null): Response {
  if (xml === null) return jsonResponse({ message: "Not found" }, { status: 404 });
  return new Response(xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": SEO_FILE_CACHE_CONTROL,
    },
  });
}
