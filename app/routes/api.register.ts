import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { tokenRegister } from "~/procedures/accounts.server";

const routes = apiRoutes({ POST: apiHandler(tokenRegister, { body: "json", status: 201 }) });
export const loader = routes.loader;
export const action = routes.action;
