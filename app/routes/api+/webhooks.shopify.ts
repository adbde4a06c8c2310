import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoutes } from "~/web/api-adapter.server";
import { callContext } from "~/web/request-context.server";
import { errorResponse, jsonResponse, readBytesLimited } from "~/web/http.server";
import { invoke } from "~/infra/procedure.server";
import { receiveShopifyWebhook } from "~/features/publishing/procedures/shopify-webhooks.server";

const MAX_WEBHOOK_BYTES = 512 * 1024;

/** POST /api/webhooks/shopify: the Shopify app's webhooks (topic in X-Shopify-Topic); the raw bytes go to the HMAC check untouched, the unsigned headers go along to be checked against them. */
const routes = apiRoutes({
  POST: async ({ request, context }: ActionFunctionArgs) => {
    try {
      const payload = await readBytesLimited(request, MAX_WEBHOOK_BYTES);
      const header = (name: string) => request.headers.get(name) ?? undefined;
      const result = await invoke(
        receiveShopifyWebhook,
        null,
        {
          payload,
          hmac: header("X-Shopify-Hmac-Sha256"),
          topic: header("X-Shopify-Topic"),
          shop: header("X-Shopify-Shop-Domain"),
          webhookId: header("X-Shopify-Webhook-Id") ?? header("X-Shopify-Event-Id"),
          triggeredAt: header("X-Shopify-Triggered-At"),
        },
        callContext(request, context),
      );
      return jsonResponse(result);
    } catch (error) {
      return errorResponse(error);
    }
  },
});
export const loader = routes.loader;
export const action = routes.action;
