import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoutes } from "~/web/api-adapter.server";
import { resolveCaller } from "~/web/auth.server";
import { errorResponse, jsonResponse } from "~/web/http.server";
import { openApiDocument } from "~/routes/api+/openapi.server";

/**
 * GET /api/openapi.json: the OpenAPI document of every /api route (public; it
 * changes only with a deploy, so caches may keep it for 5 minutes).
 */
const routes = apiRoutes({
  GET: async ({ request }: LoaderFunctionArgs) => {
    try {
      // As on every public /api route, a bearer token that is sent but not valid is a 401.
      await resolveCaller(request, { bearer: true });
      return jsonResponse(openApiDocument(), {
        headers: { "Cache-Control": "public, max-age=300" },
      });
    } catch (error) {
      return errorResponse(error);
    }
  },
});
export const loader = routes.loader;
export const action = routes.action;
