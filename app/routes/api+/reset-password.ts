import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { resetPassword } from "~/features/accounts/procedures/password-reset.server";

const routes = apiRoutes({
  POST: apiHandler(resetPassword, { body: "json", status: 204 }),
});
export const loader = routes.loader;
export const action = routes.action;
