import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { receiveShopifyWebhookDelivery } from "~/features/publishing/shopify/shopify-webhook-delivery.server";

/**
 * POST /api/webhooks/shopify: every webhook of the Shopify app (one URL; the
 * topic comes in X-Shopify-Topic). The raw body's HMAC (X-Shopify-Hmac-Sha256)
 * is checked against the app's client secret before anything is read from it:
 * 401 when it is missing or wrong. A signed body that is not a JSON object is
 * a 400; a signed topic the app does not subscribe to is acknowledged and ignored.
 * The headers are not signed, so nothing in them is taken on trust: the store
 * is the one the body names (400 when X-Shopify-Shop-Domain names another; an
 * order names none, its products are matched in the header's store), the
 * body must have its topic's shape (400 otherwise), a late delivery is acted
 * on (X-Shopify-Triggered-At only tells an uninstall from before a reinstall),
 * and a body already acted on is not acted on again whatever its webhook id
 * (shopify-webhook-delivery.server.ts).
 */
export const receiveShopifyWebhook = defineProcedure({
  name: "receiveShopifyWebhook",
  access: "public",
  input: z.object({
    payload: z.custom<Buffer>((value) => Buffer.isBuffer(value)),
    hmac: z.string().optional(),
    topic: z.string().optional(),
    shop: z.string().optional(),
    webhookId: z.string().max(255).optional(),
    triggeredAt: z.string().max(100).optional(),
  }),
  run: ({ input, ctx }) =>
    receiveShopifyWebhookDelivery(
      ctx.db,
      ctx.config.SHOPIFY_CLIENT_SECRET,
      input,
      ctx.now,
      ctx.ties,
    ),
});
