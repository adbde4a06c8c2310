import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { tokenSessionResponse } from "~/web/token-session.server";
import { register } from "~/features/accounts/procedures.server";

const routes = apiRoutes({
  POST: apiHandler(register, { body: "json", respond: (user, _caller, ctx) => tokenSessionResponse(user, ctx, 201) }),
});
export const loader = routes.loader;
export const action = routes.action;
