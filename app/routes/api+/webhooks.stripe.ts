import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoutes } from "~/web/api-adapter.server";
import { callContext } from "~/web/request-context.server";
import { errorResponse, jsonResponse, readTextLimited } from "~/web/http.server";
import { invoke } from "~/infra/procedure.server";
import { receiveStripeWebhook } from "~/features/market/procedures/webhooks.server";

const MAX_EVENT_BYTES = 512 * 1024;

/** POST /api/webhooks/stripe: Stripe's signed events; the raw body goes to the signature check untouched. */
const routes = apiRoutes({
  POST: async ({ request, context }: ActionFunctionArgs) => {
    try {
      const payload = await readTextLimited(request, MAX_EVENT_BYTES);
      const signature = request.headers.get("Stripe-Signature") ?? undefined;
      const result = await invoke(receiveStripeWebhook, null, { payload, signature }, callContext(request, context));
      return jsonResponse(result);
    } catch (error) {
      return errorResponse(error);
    }
  },
});
export const loader = routes.loader;
export const action = routes.action;
