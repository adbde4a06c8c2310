import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { endTokenSession } from "~/features/accounts/procedures/sign-in.server";

const routes = apiRoutes({ POST: apiHandler(endTokenSession, { status: 204 }) });
export const loader = routes.loader;
export const action = routes.action;
