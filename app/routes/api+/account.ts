import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { eraseMyAccount } from "~/features/erasure/procedures.server";

/** DELETE /api/account `{password}`: 202, the account is closed at once and erased in the background; 400 for a wrong password. */
const routes = apiRoutes({ DELETE: apiHandler(eraseMyAccount, { body: "json", status: 202 }) });
export const loader = routes.loader;
export const action = routes.action;
