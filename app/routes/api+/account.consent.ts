import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { giveFaceConsent, withdrawFaceConsentProcedure } from "~/features/privacy/procedures/face-consent.server";

/**
 * POST /api/account/consent {faceProcessing: true}: 200 the account, the consent recorded with its time and version.
 * DELETE /api/account/consent: 200 the account; the caller's waiting styles are cancelled.
 */
const routes = apiRoutes({
  POST: apiHandler(giveFaceConsent, { body: "json" }),
  DELETE: apiHandler(withdrawFaceConsentProcedure),
});
export const loader = routes.loader;
export const action = routes.action;
