import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { account, updateAccount } from "~/features/accounts/procedures/profile.server";
import { eraseMyAccount } from "~/features/erasure/procedures/erasure.server";

/**
 * GET /api/account: the caller's own account; PATCH: change any of the names,
 * handle and bio; DELETE `{password}`: 202, the account is closed at once and
 * erased in the background (400 for a wrong password).
 */
const routes = apiRoutes({
  GET: apiHandler(account),
  PATCH: apiHandler(updateAccount, { body: "json" }),
  DELETE: apiHandler(eraseMyAccount, { body: "json", status: 202 }),
});
export const loader = routes.loader;
export const action = routes.action;
