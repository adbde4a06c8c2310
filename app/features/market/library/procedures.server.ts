import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { HttpError, badRequest, forbidden, notFound } from "~/infra/errors.server";
import {
  LIBRARY_LINK_EMAIL_RATE_LIMIT,
  LIBRARY_LINK_RATE_LIMIT,
  throttle,
  throttleQuietly,
} from "~/infra/rate-limit.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { mailLinkOrigin } from "~/infra/configured-origin.server";
import { queueMailWithinRecipientLimit } from "~/features/mail/public.server";
import { redeemDownload } from "~/features/market/orders/download-grants.server";
import { licenseByLicenseId } from "~/features/market/orders/licenses.server";
import { hasPaidOrders, libraryOf } from "~/features/market/library/library.server";
import {
  libraryUrl,
  normalizeEmail,
  verifyLibraryToken,
} from "~/features/market/library/library-token.server";
import { renderLibraryLinkMail } from "~/features/market/library/library-link-mail.server";
import {
  LIBRARY_LINK_SENT,
  libraryLinkSchema,
  ratingSchema,
} from "~/features/market/library/library-schema";
import { rateItem, ratingsOfItems } from "~/features/market/catalog/ratings.server";
import { findOrderById } from "~/features/market/orders/orders.server";
import { askForRefund } from "~/features/market/orders/refund-requests.server";
import { refundRequestDeps } from "~/features/market/orders/refund-requests.procedures.server";
import { libraryRefundRequestSchema } from "~/features/market/orders/refund-request-schema";

/** Buyers' downloads, license pages and library (public: the download token, the license id or the library link is the key). */

const DENIED: Record<"unknown" | "expired" | "exhausted" | "suspended", string> = {
  unknown: "This download link is not valid.",
  expired: "This download link has expired.",
  exhausted: "This download link has been used the maximum number of times.",
  suspended: "Downloads of this order are suspended while a payment dispute is open.",
};

/** A download refused because its order was refunded: 410, the link is gone for good. */
export class RefundedDownloadError extends HttpError {
  constructor(readonly refundedAt: string | null) {
    super(410, "This order was refunded, so its download links no longer work.");
  }
}

/** GET /downloads/{token}: spends one download and names the file to send (403 when refused). */
export const downloadPurchase = defineProcedure({
  name: "downloadPurchase",
  access: "public",
  input: z.object({ token: z.string().min(1).max(200), count: z.boolean().default(true) }),
  async run({ input, ctx }) {
    const redemption = await redeemDownload(ctx.db, input.token, ctx.now, { count: input.count });
    if (!redemption.ok) {
      if (redemption.reason === "refunded") throw new RefundedDownloadError(redemption.refundedAt);
      throw forbidden(DENIED[redemption.reason]);
    }
    return redemption;
  },
});

/** The license page of a paid order, by the order's license id (an order id is not one: 404). */
export const orderLicense = defineProcedure({
  name: "orderLicense",
  access: "public",
  input: z.object({ licenseId: z.string().min(1).max(100) }),
  async run({ input, ctx }) {
    const license = await licenseByLicenseId(ctx.db, input.licenseId);
    if (!license) throw notFound("License not found");
    return license;
  },
});

/**
 * POST /api/library-link and the form on /library: mails a library link (24
 * hours) to an email that has paid orders. The answer is the same for every
 * email; limited per address (429) and, without saying so, per email and by
 * the recipient's limit of mail anyone can trigger.
 */
export const requestLibraryLink = defineProcedure({
  name: "requestLibraryLink",
  access: "public",
  input: libraryLinkSchema,
  async run({ input, ctx }) {
    await throttle(ctx, LIBRARY_LINK_RATE_LIMIT);
    const email = normalizeEmail(input.email);
    if (
      (await throttleQuietly(ctx, LIBRARY_LINK_EMAIL_RATE_LIMIT, email)) &&
      (await hasPaidOrders(ctx.db, email))
    ) {
      const origin = mailLinkOrigin(ctx.config, "A library link mail");
      if (origin) {
        await queueMailWithinRecipientLimit(ctx.db, {
          to: email,
          ...renderLibraryLinkMail({ libraryUrl: libraryUrl(origin, email, ctx.now) }),
          now: ctx.now,
        });
        announceJobs();
      }
    }
    return { message: LIBRARY_LINK_SENT };
  },
});

/**
 * /library?token=...: the paid orders of the token's email, newest first,
 * with Download and License links, and the buyer's own ratings by order item
 * (ratings.server.ts). Null for a missing, bad or expired token (the page
 * then offers to mail a new link).
 */
export const buyerLibrary = defineProcedure({
  name: "buyerLibrary",
  access: "public",
  input: z.object({ token: z.string().max(1000).optional() }),
  async run({ input, ctx }) {
    const verified = input.token ? verifyLibraryToken(input.token, ctx.now) : null;
    if (!verified) return null;
    const orders = await libraryOf(
      ctx.db,
      verified.email,
      ctx.origin,
      ctx.now,
      ctx.config.REFUND_WINDOW_DAYS,
    );
    return {
      email: verified.email,
      expiresAt: verified.expiresAt.toISOString(),
      orders,
      ratings: await ratingsOfItems(
        ctx.db,
        orders.flatMap((order) => order.items.map((item) => item.orderItemId)),
      ),
    };
  },
});

export const LIBRARY_LINK_INVALID =
  "This library link is not valid or has expired. Ask for a new one below.";

/**
 * The library's rating form: the buyer (proved by the library link's token)
 * rates one of their paid items, 1 to 5 stars and up to 500 characters; a
 * second rating of the item replaces the first. 400 for an invalid link, an
 * item that is not theirs, or a refunded one.
 */
export const rateLibraryItem = defineProcedure({
  name: "rateLibraryItem",
  access: "public",
  input: ratingSchema.extend({ token: z.string().max(1000) }),
  async run({ input, ctx }) {
    const verified = verifyLibraryToken(input.token, ctx.now);
    if (!verified) throw badRequest(LIBRARY_LINK_INVALID);
    return rateItem(ctx.db, {
      email: verified.email,
      orderItemId: input.orderItemId,
      stars: input.stars,
      text: input.text,
      now: ctx.now,
    });
  },
});

export const NOT_IN_LIBRARY = "This order is not in your library.";

/**
 * The library's refund form: the buyer (proved by the library link's token)
 * asks for a refund of one of their orders, with a reason, as
 * POST /api/refund-requests does with the checkout session
 * (refund-requests.server.ts). 400 for an invalid link; 404 for an order
 * that is not theirs (as for one that does not exist); 409 with the reason
 * when it may not be asked.
 */
export const requestLibraryRefund = defineProcedure({
  name: "requestLibraryRefund",
  access: "public",
  input: libraryRefundRequestSchema,
  async run({ input, ctx }) {
    const verified = verifyLibraryToken(input.token, ctx.now);
    if (!verified) throw badRequest(LIBRARY_LINK_INVALID);
    const order = await findOrderById(ctx.db, input.orderId);
    if (!order || order.customer_email !== verified.email) throw notFound(NOT_IN_LIBRARY);
    const made = await askForRefund(refundRequestDeps(ctx), order, input.reason);
    announceJobs();
    return made;
  },
});
