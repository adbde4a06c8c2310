import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { tokenLogin } from "~/features/accounts/procedures.server";

const routes = apiRoutes({ POST: apiHandler(tokenLogin, { body: "json" }) });
export const loader = routes.loader;
export const action = routes.action;
