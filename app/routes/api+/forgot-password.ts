import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { requestPasswordReset } from "~/features/accounts/procedures/password-reset.server";

const routes = apiRoutes({
  POST: apiHandler(requestPasswordReset, { body: "json", status: 202 }),
});
export const loader = routes.loader;
export const action = routes.action;
