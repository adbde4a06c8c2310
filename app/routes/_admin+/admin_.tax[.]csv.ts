import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminTaxCsv } from "~/features/market/orders/admin.procedures.server";
import { CSV_CONTENT_TYPE, fileDownload } from "~/web/file-download.server";
import { loadProcedure } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";

/**
 * GET /admin/tax.csv: the Orders screen's download of sales and tax per month
 * and country (the file GET /api/admin/tax.csv answers), a plain link that
 * works without JavaScript. Signed out, to sign-in; not the admin, 403.
 */
export async function loader(args: LoaderFunctionArgs) {
  const admin = await requireScreenUser(args.request, { access: "admin" });
  const file = await loadProcedure(adminTaxCsv, args, {}, admin);
  return fileDownload(CSV_CONTENT_TYPE)(file);
}
