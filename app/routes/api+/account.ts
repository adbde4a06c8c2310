import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { account, updateAccount } from "~/features/accounts/procedures.server";

/** GET /api/account: the caller's own account; PATCH: change any of the names, handle and bio. */
const routes = apiRoutes({
  GET: apiHandler(account),
  PATCH: apiHandler(updateAccount, { body: "json" }),
});
export const loader = routes.loader;
export const action = routes.action;
