import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { requestEmailChange } from "~/features/accounts/procedures/profile.server";

/** POST /api/account/email: `{email, password}`; 202, a link goes to the new address and a notice to the old one. */
const routes = apiRoutes({ POST: apiHandler(requestEmailChange, { body: "json", status: 202 }) });
export const loader = routes.loader;
export const action = routes.action;
