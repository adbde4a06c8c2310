import type { LoaderFunctionArgs } from "@remix-run/node";
import { mySalesCsv } from "~/features/market/analytics/procedures.server";
import { CSV_CONTENT_TYPE, fileDownload } from "~/web/file-download.server";
import { loadProcedure } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";

/**
 * GET /analytics/sales.csv: the analytics screen's download of the signed-in
 * creator's monthly sales (the file GET /api/token-analytics/sales.csv
 * answers), a plain link that works without JavaScript. Signed out, to sign-in.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const file = await loadProcedure(mySalesCsv, args, {}, user);
  return fileDownload(CSV_CONTENT_TYPE)(file);
}
