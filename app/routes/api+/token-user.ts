import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { currentUser } from "~/features/accounts/procedures/sign-in.server";

const routes = apiRoutes({ GET: apiHandler(currentUser) });
export const loader = routes.loader;
export const action = routes.action;
