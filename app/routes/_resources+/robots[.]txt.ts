import type { LoaderFunctionArgs } from "@remix-run/node";
import { readRobots } from "~/features/market/catalog/procedures.server";
import { loadProcedure } from "~/web/screen-action.server";
import { SEO_FILE_CACHE_CONTROL } from "~/web/seo-files.server";

/** GET /robots.txt: what crawlers may read, and where the sitemap is. */
export async function loader(args: LoaderFunctionArgs) {
  const text = await loadProcedure(readRobots, args, {}, null);
  return new Response(text, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": SEO_FILE_CACHE_CONTROL,
    },
  });
}
