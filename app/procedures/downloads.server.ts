import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { forbidden, notFound } from "~/infra/errors.server";
import { redeemDownload } from "~/services/download-grants.server";
import { licenseForOrder } from "~/services/licenses.server";

/** Buyers' downloads and license pages (public: the token or order id is the key). */

const DENIED: Record<"unknown" | "expired" | "exhausted", string> = {
  unknown: "This download link is not valid.",
  expired: "This download link has expired.",
  exhausted: "This download link has been used the maximum number of times.",
};

/** GET /downloads/{token}: spends one download and names the file to send (403 when refused). */
export const downloadPurchase = defineProcedure({
  name: "downloadPurchase",
  access: "public",
  input: z.object({ token: z.string().min(1).max(200), count: z.boolean().default(true) }),
  async run({ input, ctx }) {
    const redemption = await redeemDownload(ctx.db, input.token, ctx.now, { count: input.count });
    if (!redemption.ok) throw forbidden(DENIED[redemption.reason]);
    return redemption;
  },
});

/** The license page of a paid order. */
export const orderLicense = defineProcedure({
  name: "orderLicense",
  access: "public",
  input: z.object({ orderId: z.string().min(1).max(100) }),
  async run({ input, ctx }) {
    const license = await licenseForOrder(ctx.db, input.orderId);
    if (!license) throw notFound("License not found");
    return license;
  },
});
