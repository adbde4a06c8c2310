import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { tokenSessionResponse } from "~/web/token-session.server";
import { signIn } from "~/features/accounts/procedures/sign-in.server";

const routes = apiRoutes({
  POST: apiHandler(signIn, { body: "json", respond: (user, _caller, ctx) => tokenSessionResponse(user, ctx) }),
});
export const loader = routes.loader;
export const action = routes.action;
