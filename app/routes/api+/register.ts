import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { tokenRegister } from "~/features/accounts/procedures.server";

const routes = apiRoutes({ POST: apiHandler(tokenRegister, { body: "json", status: 201 }) });
export const loader = routes.loader;
export const action = routes.action;
