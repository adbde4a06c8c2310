import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { recordShopifySale } from "~/features/market/webhooks/shopify-sales.server";

/**
 * Delivers the lines of a paid Shopify order that are our publications
 * (shopify-sales.server.ts), exactly once per line. Called by publishing's
 * orders/paid webhook once Shopify's signature is checked; it is on no
 * screen and no /api route of its own.
 */
export const deliverShopifySale = defineProcedure({
  name: "deliverShopifySale",
  access: "public",
  input: z.object({
    shop: z.string().min(1).max(255),
    shopifyOrderId: z.string().min(1).max(40),
    orderName: z.string().max(320).nullable(),
    buyerEmail: z.string().max(320).nullable(),
    buyerName: z.string().max(320).nullable(),
    currency: z.string().regex(/^[A-Za-z]{3}$/),
    lines: z
      .array(
        z.object({
          lineItemId: z.string().min(1).max(40),
          creatorId: z.string().min(1).max(100),
          stylizedImageId: z.string().min(1).max(100),
          priceCents: z.number().int().nonnegative(),
        }),
      )
      .max(500),
  }),
  run: ({ input, ctx }) =>
    ctx.db.transaction().execute((trx) => recordShopifySale(trx, input, ctx.now)),
});
