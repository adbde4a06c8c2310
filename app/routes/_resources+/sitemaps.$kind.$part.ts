import type { LoaderFunctionArgs } from "@remix-run/node";
import { readSitemap } from "~/features/market/catalog/procedures.server";
import { loadProcedure } from "~/web/screen-action.server";
import { xmlResponse } from "~/web/seo-files.server";

/** GET /sitemaps/{kind}/{start}.xml: one part of the sitemap, as the index names it; 404 for any other. */
export async function loader(args: LoaderFunctionArgs) {
  const { kind = "", part = "" } = args.params;
  return xmlResponse(await loadProcedure(readSitemap, args, { kind, part }, null));
}
