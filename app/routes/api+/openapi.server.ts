import { API_ROUTES } from "~/routes/api+/api-route-table.server";
import type { OpenApiDocument } from "~/routes/api+/openapi-document.server";
import { openApiDocumentOf } from "~/routes/api+/openapi-document.server";

export type { OpenApiDocument, Operation } from "~/routes/api+/openapi-document.server";
export { API_VERSION, buildOpenApiDocument } from "~/routes/api+/openapi-document.server";

/** The OpenAPI document of the /api route table, as GET /api/openapi.json serves it. */
export function openApiDocument(): OpenApiDocument {
  return openApiDocumentOf(API_ROUTES);
}
