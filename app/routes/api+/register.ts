import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { register } from "~/features/accounts/procedures/sign-in.server";

/**
 * POST /api/register: 202 with the same message whether or not the email has
 * an account; the address is mailed the link that creates the account, or a
 * notice that someone tried. Nobody is signed in: the client signs in with
 * POST /api/token-login once the account exists.
 */
const routes = apiRoutes({ POST: apiHandler(register, { body: "json", status: 202 }) });
export const loader = routes.loader;
export const action = routes.action;
