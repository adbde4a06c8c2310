import type { LoaderFunctionArgs } from "@remix-run/node";
import { readSitemap } from "~/features/market/catalog/procedures.server";
import { loadProcedure } from "~/web/screen-action.server";
import { xmlResponse } from "~/web/seo-files.server";

/** GET /sitemap.xml: the sitemap index (its parts are /sitemaps/{kind}/{start}.xml). */
export async function loader(args: LoaderFunctionArgs) {
  return xmlResponse(await loadProcedure(readSitemap, args, {}, null));
}
