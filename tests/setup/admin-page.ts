import * as adminRoute from "~/routes/_admin+/admin";
import { callRoute, formRequest, type RequestOptions } from "#tests/setup/requests";

/** A form post of `fields` to the /admin page at `url` (with `options`' cookie and origin), answered by its action. */
export function postAdminForm(
  url: string,
  fields: Record<string, string>,
  options: RequestOptions = {},
): Promise<Response> {
  return callRoute(adminRoute.action, formRequest(url, fields, options));
}
