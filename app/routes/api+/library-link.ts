import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { requestLibraryLink } from "~/features/market/procedures/downloads-and-library.server";

const routes = apiRoutes({
  POST: apiHandler(requestLibraryLink, { body: "json", status: 202 }),
});
export const loader = routes.loader;
export const action = routes.action;
