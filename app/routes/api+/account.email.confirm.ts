import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { confirmEmailChange } from "~/features/accounts/procedures/profile.server";

/** POST /api/account/email/confirm: `{token}` from the mailed link; 200 with the account at its new address. */
const routes = apiRoutes({ POST: apiHandler(confirmEmailChange, { body: "json" }) });
export const loader = routes.loader;
export const action = routes.action;
