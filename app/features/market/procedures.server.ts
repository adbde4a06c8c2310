import { z } from "zod";
import { creatorMarketExport } from "~/features/market/creator-export.server";
import { MAX_CART_ITEMS } from "~/lib/limits";
import { recentSalesOf } from "~/features/market/creator-sales.server";
import { defineProcedure } from "~/infra/procedure.server";
import { getFileStore } from "~/infra/file-store.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import {
  MARKETPLACE_MAX_LIMIT,
  MARKETPLACE_MAX_QUERY,
  MARKETPLACE_PAGE_SIZE,
  LICENSE_TYPE,
  MISSING_INFORMATION,
} from "~/features/market/types";
import {
  listingInputSchema,
  defaultListingDescription,
  defaultListingTitle,
} from "~/features/market/listing-schema";
import {
  browseMarketplace as browse,
  recordListingViews,
  viewDay,
  visitorHash,
} from "~/features/market/marketplace-search.server";
import { deriveKey } from "~/infra/keys.server";
import { cartContents } from "~/features/market/cart-contents.server";
import { notFound, badRequest, conflict, forbidden, HttpError } from "~/infra/errors.server";
import { signedMediaUrl } from "~/infra/signed-urls.server";
import { DEFAULT_PRICE, STYLE_IDS, styleName, suggestedPrice } from "~/lib/styles";
import { centsToPriceString } from "~/lib/money";
import {
  activeListingForStylizedImage,
  ownStylizedImage,
  parseTags,
  listStylizedImage,
  listingsOfCreator,
  toCreatorListing,
  withdrawListing,
  marketplaceListingUrl,
} from "~/features/market/listings.server";
import type { OrderRow } from "#db/schema";
import type { CallContext } from "~/infra/call-context.server";
import {
  CHECKOUT_RATE_LIMIT,
  LIBRARY_LINK_EMAIL_RATE_LIMIT,
  LIBRARY_LINK_RATE_LIMIT,
  PAYMENT_STATUS_RATE_LIMIT,
  SEARCH_RATE_LIMIT,
  throttle,
  throttleQuietly,
} from "~/infra/rate-limit.server";
import { checkoutProvider, providerFor, testSalesCount } from "~/infra/payments/select-provider.server";
import { customerInfoSchema } from "~/features/market/checkout-schema";
import {
  cancelTestOrder,
  payTestOrder,
  startCheckout,
  syncOrderWithProvider,
} from "~/features/market/checkout.server";
import { findOrderById, findOrderBySessionId, itemsOfOrder } from "~/features/market/orders.server";
import { ORDER_STATUSES, searchOrders, toAdminOrderViews, type AdminOrderView } from "~/features/market/admin-orders.server";
import { recordRefund } from "~/features/market/refunds.server";
import { crashPoint } from "~/infra/crash-points.server";
import { paymentStatusOf, providerChecks } from "~/features/market/payment-status.server";
import { handleStripeEvent } from "~/features/market/stripe-webhooks.server";
import { endpointOfEvent, isLiveStripeKey, verifyStripeEvent } from "~/features/market/stripe-webhook-routing.server";
import { redeemDownload } from "~/features/market/download-grants.server";
import { licenseByLicenseId } from "~/features/market/licenses.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { queueMailWithinRecipientLimit } from "~/features/mail/lends.server";
import { configuredOrigin, mailLinkOrigin } from "~/infra/configured-origin.server";
import { creatorByHandle, listingPage } from "~/features/market/listing-page.server";
import { ensureSocialCard } from "~/features/market/social-card.server";
import type { SitemapPart } from "~/features/market/sitemap.server";
import {
  cachedSitemap,
  robotsTxt,
  sitemapIndexXml,
  sitemapPartXml,
  sitemapParts,
} from "~/features/market/sitemap.server";
import { hasPaidOrders, libraryOf } from "~/features/market/library.server";
import type { LibraryOrder } from "~/features/market/library.server";
import { libraryUrl, normalizeEmail, verifyLibraryToken } from "~/features/market/library-token.server";
import { renderLibraryLinkMail } from "~/features/market/library-link-mail.server";
import { LIBRARY_LINK_SENT, libraryLinkSchema, ratingSchema } from "~/features/market/library-schema";
import { creatorAnalytics as analyticsOf, recordCartAdd } from "~/features/market/analytics.server";
import { ANALYTICS_RANGES, DEFAULT_ANALYTICS_RANGE, type AnalyticsRange } from "~/features/market/analytics";
import { rateItem, ratingsOfItems, ratingsOfListings } from "~/features/market/ratings.server";
import type { ItemRating } from "~/features/market/ratings.server";

/** The public marketplace, listing on it, and a creator's own listings. */

/** The characters of a marketplace cursor (encodeCursor: base64url without padding). */
const BASE64URL = /^[A-Za-z0-9_-]+$/;

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

export const marketplaceQuerySchema = z.object({
  style: z.preprocess(emptyToUndefined, z.enum(STYLE_IDS, "Unknown style").optional()),
  q: z.preprocess(
    emptyToUndefined,
    z.string().trim().max(MARKETPLACE_MAX_QUERY, `Search is at most ${MARKETPLACE_MAX_QUERY} characters`).optional(),
  ),
  cursor: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .max(300, "Invalid cursor")
      .regex(BASE64URL, "Invalid cursor")
      .meta({ description: "The `nextCursor` of the page before, sent back as it came: an opaque base64url token." })
      .optional(),
  ),
  limit: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number("limit must be a number")
      .int("limit must be a whole number")
      .min(1, "limit must be at least 1")
      .max(MARKETPLACE_MAX_LIMIT, `limit is at most ${MARKETPLACE_MAX_LIMIT}`)
      .default(MARKETPLACE_PAGE_SIZE),
  ),
  listing: z.preprocess(emptyToUndefined, z.string().max(100).optional()),
});

/**
 * GET /api/marketplace and the /marketplace page: a page of public listings.
 * When the page says the load is a fresh view (ctx.countsViews), each listing
 * shown counts as a view for its creator, once per visitor and day (not the
 * viewer's own listings). A visitor is the signed-in user, else the client
 * address with the user agent, kept only as a keyed hash. A search (?q=)
 * counts against the caller's address (SEARCHES_PER_ADDRESS a minute; past
 * it 429 with Retry-After); browsing without one does not.
 */
export const browseMarketplace = defineProcedure({
  name: "browseMarketplace",
  access: "public",
  input: marketplaceQuerySchema,
  async run({ input, user, ctx }) {
    if (input.q) throttle(ctx, SEARCH_RATE_LIMIT);
    const page = await browse(ctx.db, {
      style: input.style,
      q: input.q,
      cursor: input.cursor,
      limit: input.limit,
      listingId: input.listing,
    });
    if (ctx.countsViews) await countViews(ctx, user, page.items.map((item) => item.id));
    // Each item's own page, absolute, for clients that link to it.
    const origin = pagesOrigin(ctx);
    return { ...page, items: page.items.map((item) => ({ ...item, url: marketplaceListingUrl(origin, item.id) })) };
  },
});

/**
 * The origin of the public pages' absolute links (canonical, Open Graph,
 * sitemap): the configured one (PUBLIC_URL), never the request's Host, since a
 * page served from the visitors' cache or read by a crawler must not carry a
 * name a client wrote; outside production without PUBLIC_URL, the call's own.
 */
function pagesOrigin(ctx: CallContext): string {
  return configuredOrigin(ctx.config) ?? ctx.origin;
}

/** A listing id or handle as the URL may carry it: anything else is simply not found. */
const PUBLIC_NAME = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * GET /marketplace/{listingId}: the listing's own page (its preview, details,
 * creator, more of theirs) with its social card made and stored on the first
 * request. 404 for an unknown or malformed id, a withdrawn listing, or a
 * banned or erased creator's.
 */
export const viewListingPage = defineProcedure({
  name: "viewListingPage",
  access: "public",
  input: z.object({ listingId: z.string() }),
  async run({ input, ctx }) {
    const page = PUBLIC_NAME.test(input.listingId) ? await listingPage(ctx.db, input.listingId, pagesOrigin(ctx)) : null;
    if (!page) throw notFound("Listing not found");
    const { listing, socialCard } = page;
    try {
      await ensureSocialCard(getFileStore(), { previewKey: socialCard.previewKey, title: listing.title, priceCents: listing.priceCents });
    } catch (error) {
      // The page stands without its card; the next visit tries again.
      console.warn(`Could not make the social card of listing ${listing.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return page;
  },
});

/** The payment monitor for a signed-in creator: their latest sales and each payment's state (no buyer details). */
export const myRecentSales = defineProcedure({
  name: "market.myRecentSales",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => recentSalesOf(ctx.db, user.id),
});

/**
 * GET /creators/{handle}: a creator's storefront, their live listings with the
 * marketplace's filters and pages. 404 for an unknown or malformed handle, a
 * banned or erased creator.
 */
export const viewStorefront = defineProcedure({
  name: "viewStorefront",
  access: "public",
  input: marketplaceQuerySchema.omit({ listing: true }).extend({ handle: z.string() }),
  async run({ input, ctx }) {
    const origin = pagesOrigin(ctx);
    const creator = PUBLIC_NAME.test(input.handle) ? await creatorByHandle(ctx.db, input.handle, origin) : null;
    if (!creator) throw notFound("Creator not found");
    if (input.q) throttle(ctx, SEARCH_RATE_LIMIT);
    const page = await browse(ctx.db, {
      style: input.style,
      q: input.q,
      cursor: input.cursor,
      limit: input.limit,
      creatorId: creator.id,
    });
    return { creator, page };
  },
});

/** GET /sitemap.xml and its parts (/sitemaps/{kind}/{start}.xml): XML, or null for a part that is not one. */
export const readSitemap = defineProcedure({
  name: "readSitemap",
  access: "public",
  input: z.object({ kind: z.string().optional(), part: z.string().optional() }),
  async run({ input, ctx }) {
    const origin = pagesOrigin(ctx);
    const parts = await cachedSitemap("parts", async () => JSON.stringify(await sitemapParts(ctx.db)));
    const known: SitemapPart[] = JSON.parse(parts ?? "[]");
    if (input.kind === undefined) return cachedSitemap(`index\n${origin}`, async () => sitemapIndexXml(origin, known));
    const part = known.find((candidate) => candidate.kind === input.kind && `${candidate.start}.xml` === input.part);
    if (!part) return null;
    return cachedSitemap(`${part.kind}\n${part.start}\n${origin}`, () => sitemapPartXml(ctx.db, origin, part.kind, part.start));
  },
});

/** GET /robots.txt. */
export const readRobots = defineProcedure({
  name: "readRobots",
  access: "public",
  input: z.object({}),
  run: ({ ctx }) => robotsTxt(pagesOrigin(ctx)),
});

/**
 * The view counts of a marketplace page served to a visitor from the public
 * pages' cache: the same counting as a rendered page, for the listings that
 * copy shows (unknown ids count nothing).
 */
export const countMarketplaceViews = defineProcedure({
  name: "countMarketplaceViews",
  access: "public",
  input: z.object({ listingIds: z.array(z.string().min(1).max(64)).max(MARKETPLACE_MAX_LIMIT) }),
  async run({ input, user, ctx }) {
    await countViews(ctx, user, input.listingIds);
  },
});

/** Each listing shown counts once per visitor and day: the signed-in user, else the address with the user agent, as a keyed hash. */
async function countViews(ctx: CallContext, user: { id: string } | null, listingIds: string[]) {
  await recordListingViews(ctx.db, listingIds, visitorOf(ctx, user), ctx.now);
}

/** Who is looking, for the once-a-day counts: the signed-in user, else the address with the user agent, as a keyed hash of the day. */
function visitorOf(ctx: CallContext, user: { id: string } | null): { userId: string | null; visitorHash: string } {
  const visitor = user ? { userId: user.id } : { clientIp: ctx.clientIp, userAgent: ctx.userAgent };
  return { userId: user?.id ?? null, visitorHash: visitorHash(deriveKey("listing-views"), visitor, viewDay(ctx.now)) };
}

/**
 * POST /cart's add: a live listing added to a cart counts for its creator's
 * analytics once per visitor, listing and day (UTC), as views do; never the
 * creator's own. Unknown or withdrawn listings count nothing.
 */
export const countCartAdd = defineProcedure({
  name: "countCartAdd",
  access: "public",
  input: z.object({ listingId: z.string().min(1).max(64) }),
  async run({ input, user, ctx }) {
    return { counted: await recordCartAdd(ctx.db, input.listingId, visitorOf(ctx, user), ctx.now) };
  },
});

const RANGE_MESSAGE = `days must be ${ANALYTICS_RANGES.slice(0, -1).join(", ")} or ${ANALYTICS_RANGES[ANALYTICS_RANGES.length - 1]}`;

export const analyticsQuerySchema = z.object({
  days: z.preprocess(
    (value) => (value === "" || value === null || value === undefined ? String(DEFAULT_ANALYTICS_RANGE) : String(value)),
    z
      .enum(
        ANALYTICS_RANGES.map((range) => String(range)) as [string, ...string[]],
        RANGE_MESSAGE,
      )
      .meta({ description: `The range in days ending today (UTC): ${ANALYTICS_RANGES.join(", ")}; ${DEFAULT_ANALYTICS_RANGE} when left out.` }),
  ),
});

/**
 * GET /api/token-analytics and /analytics: the caller's views, add-to-carts,
 * sales, conversion and earnings per UTC day of the last 7, 30 or 90 days, and
 * per listing. Sales and earnings come from the ledger (the creator's share,
 * less refunds; on a production server without test sales).
 */
export const creatorAnalytics = defineProcedure({
  name: "creatorAnalytics",
  access: "user",
  input: analyticsQuerySchema,
  run: ({ input, user, ctx }) =>
    analyticsOf(ctx.db, user.id, Number(input.days) as AnalyticsRange, ctx.now, {
      includeTestSales: testSalesCount(ctx.config),
    }),
});

/**
 * Lists a completed stylized image of the caller's on the product's own
 * marketplace, or updates its listing (one per stylized image). Exported for
 * the dashboard and the publishing work (platform id `marketplace`).
 */
export const listOnMarketplace = defineProcedure({
  name: "listOnMarketplace",
  access: "user",
  input: listingInputSchema,
  async run({ input, user, ctx }) {
    // A listing writes its own copy and preview: refused while the volume is nearly full.
    await ensureFreeSpace(ctx.config);
    const { listing, created } = await listStylizedImage(ctx.db, getFileStore(), {
      userId: user.id,
      input,
      now: ctx.now,
    });
    return { listing: toCreatorListing(listing, ctx.origin), created };
  },
});

/** GET /api/marketplace-listings and /api/token-marketplace-listings: the caller's listings. */
export const myListings = defineProcedure({
  name: "myListings",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    return (await listingsOfCreator(ctx.db, user.id)).map((row) => toCreatorListing(row, ctx.origin));
  },
});

export const withdrawMyListing = defineProcedure({
  name: "withdrawMyListing",
  access: "user",
  input: z.object({ listingId: z.string("Choose a listing").min(1, "Choose a listing").max(100) }),
  async run({ input, user, ctx }) {
    const listing = await withdrawListing(ctx.db, {
      userId: user.id,
      listingId: input.listingId,
      now: ctx.now,
      store: getFileStore(),
    });
    return toCreatorListing(listing, ctx.origin);
  },
});

/** The cart's listings, priced from the database. */
export const viewCart = defineProcedure({
  name: "viewCart",
  access: "public",
  input: z.object({ listingIds: z.array(z.string()).max(MAX_CART_ITEMS) }),
  run: ({ input, ctx }) => cartContents(ctx.db, input.listingIds),
});

/**
 * What the list-on-marketplace form starts from: the active listing's values,
 * else defaults (title '{Style} Style Selfie', the style's suggested price).
 */
export const listingFormDefaults = defineProcedure({
  name: "listingFormDefaults",
  access: "user",
  input: z.object({ stylizedImageId: z.string().min(1).max(100) }),
  async run({ input, user, ctx }) {
    const image = await ownStylizedImage(ctx.db, user.id, input.stylizedImageId);
    if (!image) throw notFound("Stylized image not found");
    const listing = await activeListingForStylizedImage(ctx.db, image.id);
    const name = styleName(image.style);
    return {
      stylizedImageId: image.id,
      style: image.style,
      ready: image.status === "completed" && Boolean(image.file_key),
      imageUrl: image.file_key ? signedMediaUrl(image.file_key) : null,
      listed: Boolean(listing),
      listingId: listing?.id ?? null,
      title: listing?.title ?? defaultListingTitle(name),
      description: listing?.description ?? defaultListingDescription(name),
      price: centsToPriceString(listing?.price_cents ?? image.price_cents ?? suggestedPrice(image.style) * 100),
      tags: listing ? parseTags(listing.tags).join(", ") : `${image.style}, portrait, ai art`,
      licensingEnabled: listing ? listing.licensing_enabled === 1 : image.licensing_enabled === 1,
      defaultPrice: DEFAULT_PRICE,
    };
  },
});

/** Checkout, the test checkout, payment status and the Stripe webhook. */

const cartItemSchema = z
  .object({
    imageId: z.string().min(1).max(100).optional(),
    image: z.object({ id: z.string().min(1).max(100) }).optional(),
    licenseType: z.literal(LICENSE_TYPE, `licenseType must be "${LICENSE_TYPE}"`).optional(),
    // Accepted for compatibility with clients that send it, and ignored: the price comes from the database.
    price: z.unknown().optional(),
  })
  .refine((item) => item.imageId || item.image?.id, "Each cart item needs an imageId or image.id");


/**
 * Starts a checkout with the configured provider (Stripe, else the built-in
 * test checkout) for the listings named, and answers where to pay. Public;
 * prices come from the database; limited per client address.
 * POST /api/create-checkout-session sends the listings and the customer as
 * JSON; the checkout form of /cart and the marketplace dialog sends the
 * customer's fields, and the route adds the listings of the cart cookie.
 */
export const checkout = defineProcedure({
  name: "checkout",
  access: "public",
  input: z.object({
    cartItems: z
      .array(cartItemSchema, "Your cart is empty")
      .min(1, "Your cart is empty")
      .max(MAX_CART_ITEMS, `A cart holds at most ${MAX_CART_ITEMS} images`),
    customerInfo: customerInfoSchema.optional(),
  }),
  async run({ input, ctx }) {
    if (!input.customerInfo) {
      throw badRequest(MISSING_INFORMATION.description, { customerInfo: [MISSING_INFORMATION.description] });
    }
    throttle(ctx, CHECKOUT_RATE_LIMIT);
    const started = await startCheckout(ctx.db, checkoutProvider(ctx.config), {
      listingIds: input.cartItems.map((item) => (item.imageId ?? item.image?.id)!),
      customer: input.customerInfo,
      origin: ctx.origin,
      now: ctx.now,
      currency: ctx.config.CURRENCY,
    });
    return { url: started.url, sessionId: started.sessionId };
  },
});

const sessionIdSchema = z.object({
  sessionId: z.string("Enter a checkout session id").trim().min(1, "Enter a checkout session id").max(300),
});

async function orderOrNotFound(ctx: CallContext, sessionId: string): Promise<OrderRow> {
  const order = await findOrderBySessionId(ctx.db, sessionId);
  if (!order) throw notFound("Checkout session not found");
  return order;
}

/** The order behind a session of the built-in test checkout (a Stripe session is not one: 404). */
async function testOrderOrNotFound(ctx: CallContext, sessionId: string): Promise<OrderRow> {
  const order = await orderOrNotFound(ctx, sessionId);
  if (order.provider !== "test") throw notFound("Checkout session not found");
  return order;
}

/**
 * Once Stripe is configured, orders left over from the built-in test checkout
 * can no longer be paid or cancelled there: the page says so and its buttons
 * change nothing. (A paid one still shows its downloads.)
 */
export const TEST_CHECKOUT_CLOSED =
  "This test checkout is closed: the store now takes real payments. Start again from your cart.";

function testCheckoutClosed(ctx: CallContext): boolean {
  return Boolean(ctx.config.STRIPE_SECRET_KEY);
}

/**
 * A pending Stripe order asks Stripe how its session stands (the success
 * return and the status checks), so a buyer is served even before, or
 * without, the webhook. Polls ask at most once per order every
 * PROVIDER_CHECK_INTERVAL_MS and otherwise answer from the database; the
 * success return always asks. A Stripe outage leaves the order as it is.
 */
async function refreshedOrder(ctx: CallContext, sessionId: string, force: boolean): Promise<OrderRow> {
  const order = await orderOrNotFound(ctx, sessionId);
  if (order.status !== "pending" || order.provider !== "stripe") return order;
  const provider = providerFor(order.provider, ctx.config);
  if (!provider) return order;
  const ask = async () => {
    try {
      const remote = await provider.retrieveSession(sessionId);
      if (remote) {
        await syncOrderWithProvider(ctx.db, order, remote, ctx.now);
        // The receipt, queued when this call fulfilled the order: sent now rather than at the worker's next poll.
        announceJobs();
      }
    } catch (error) {
      console.warn(`Could not retrieve Stripe session ${sessionId}:`, error instanceof Error ? error.message : error);
    }
  };
  await providerChecks.check(order.id, ctx.now.getTime(), ask, { force });
  return orderOrNotFound(ctx, sessionId);
}

/** A payment status read, limited per client address; `force` asks the provider even within its interval. */
const paymentStatusRead = (name: string, force: boolean) =>
  defineProcedure({
    name,
    access: "public",
    input: sessionIdSchema,
    async run({ input, ctx }) {
      throttle(ctx, PAYMENT_STATUS_RATE_LIMIT);
      const order = await refreshedOrder(ctx, input.sessionId, force);
      return paymentStatusOf(ctx.db, order, input.sessionId, ctx.origin);
    },
  });

/** GET /api/payment-status/{sessionId} and the payment monitor: polled, so the provider is asked at most once per interval. */
export const paymentStatus = paymentStatusRead("paymentStatus", false);

/** The buyer's return from the payment page (/marketplace?session_id=...&success=true): always asks the provider. */
export const checkoutReturnStatus = paymentStatusRead("checkoutReturnStatus", true);

/** The built-in test checkout page: the order behind a test session. */
export const testCheckoutSession = defineProcedure({
  name: "testCheckoutSession",
  access: "public",
  input: sessionIdSchema,
  async run({ input, ctx }) {
    const order = await testOrderOrNotFound(ctx, input.sessionId);
    const items = await itemsOfOrder(ctx.db, order.id);
    return {
      sessionId: input.sessionId,
      status: order.status,
      /** Why a pending session cannot be paid here, or null. */
      closedReason: order.status === "pending" && testCheckoutClosed(ctx) ? TEST_CHECKOUT_CLOSED : null,
      customer: { name: order.customer_name, email: order.customer_email, company: order.customer_company },
      total: centsToPriceString(order.total_cents),
      totalCents: order.total_cents,
      items: items.map((item) => ({ id: item.id, title: item.title, style: item.style, price: centsToPriceString(item.price_cents) })),
    };
  },
});

export const payTestCheckout = defineProcedure({
  name: "payTestCheckout",
  access: "public",
  input: sessionIdSchema,
  async run({ input, ctx }) {
    const order = await testOrderOrNotFound(ctx, input.sessionId);
    if (testCheckoutClosed(ctx)) throw conflict(TEST_CHECKOUT_CLOSED);
    await payTestOrder(ctx.db, order, ctx.now);
    announceJobs();
    return { sessionId: input.sessionId };
  },
});

export const cancelTestCheckout = defineProcedure({
  name: "cancelTestCheckout",
  access: "public",
  input: sessionIdSchema,
  async run({ input, ctx }) {
    const order = await testOrderOrNotFound(ctx, input.sessionId);
    if (testCheckoutClosed(ctx)) throw conflict(TEST_CHECKOUT_CLOSED);
    await cancelTestOrder(ctx.db, order, ctx.now);
    return { sessionId: input.sessionId };
  },
});

/** The envelope every Stripe event has (its `data.object` is read by the handlers; a session has a string id). */
const stripeEventShape = z
  .object({
    id: z.string().min(1).max(255),
    type: z.string().min(1).max(255),
    data: z.object({ object: z.looseObject({}) }),
  })
  .refine(
    (event) =>
      !["checkout.session.", "charge.", "account."].some((prefix) => event.type.startsWith(prefix)) || typeof event.data.object.id === "string",
  );

/**
 * POST /api/webhooks/stripe: the raw body is verified against
 * STRIPE_WEBHOOK_SECRET and STRIPE_CONNECT_WEBHOOK_SECRET before anything is
 * read from it; the secret that verified it says which endpoint's event it is
 * (stripe-webhook-routing.server.ts), and an event that does not fit that
 * endpoint or the server's mode (live or test) is refused with a 400.
 */
export const receiveStripeWebhook = defineProcedure({
  name: "receiveStripeWebhook",
  access: "public",
  input: z.object({ payload: z.string(), signature: z.string().optional() }),
  async run({ input, ctx }) {
    // The platform's endpoint and the Connect endpoint (creators' accounts) may share this URL; each has its own secret.
    const secrets = { platform: ctx.config.STRIPE_WEBHOOK_SECRET, connect: ctx.config.STRIPE_CONNECT_WEBHOOK_SECRET };
    if (!secrets.platform && !secrets.connect) throw notFound("Stripe webhooks are not configured");
    if (!input.signature) throw badRequest("Missing Stripe-Signature header");
    const { event, verifiedBy } = verifyStripeEvent(input.payload, input.signature, secrets);
    // Signed is not the same as well formed: anything but an event object is refused, not a 500.
    if (!stripeEventShape.safeParse(event).success) throw badRequest("Malformed Stripe event");
    const endpoint = endpointOfEvent(event, verifiedBy, isLiveStripeKey(ctx.config.STRIPE_SECRET_KEY));
    const outcome = await handleStripeEvent(ctx.db, event, { endpoint, now: ctx.now });
    if (outcome === "processed") announceJobs();
    return { received: true, outcome };
  },
});

/** Buyers' downloads and license pages (public: the download token or the license id is the key). */

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

/** The buyer's library: every paid order of one email, reached by a link sent to that email. */

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
    throttle(ctx, LIBRARY_LINK_RATE_LIMIT);
    const email = normalizeEmail(input.email);
    if (throttleQuietly(ctx, LIBRARY_LINK_EMAIL_RATE_LIMIT, email) && (await hasPaidOrders(ctx.db, email))) {
      const origin = mailLinkOrigin(ctx.config, "A library link mail");
      if (origin) {
        await queueMailWithinRecipientLimit(ctx.db, { to: email, ...renderLibraryLinkMail({ libraryUrl: libraryUrl(origin, email, ctx.now) }), now: ctx.now });
        announceJobs();
      }
    }
    return { message: LIBRARY_LINK_SENT };
  },
});

/**
 * /library?token=...: the paid orders of the token's email, newest first,
 * with Download and License links. `valid: false` for a missing, bad or
 * expired token (the page then offers to mail a new link).
 */
export const buyerLibrary = defineProcedure({
  name: "buyerLibrary",
  access: "public",
  input: z.object({ token: z.string().max(1000).optional() }),
  async run({ input, ctx }) {
    const verified = input.token ? verifyLibraryToken(input.token, ctx.now) : null;
    if (!verified) return { valid: false as const, email: null, expiresAt: null, orders: [] as LibraryOrder[], ratings: {} as Record<string, ItemRating> };
    const orders = await libraryOf(ctx.db, verified.email, ctx.origin, ctx.now);
    return {
      valid: true as const,
      email: verified.email,
      expiresAt: verified.expiresAt.toISOString(),
      orders,
      // The buyer's own ratings, by order item (ratings.server.ts).
      ratings: await ratingsOfItems(
        ctx.db,
        orders.flatMap((order) => order.items.map((item) => item.orderItemId)),
      ),
    };
  },
});

export const LIBRARY_LINK_INVALID = "This library link is not valid or has expired. Ask for a new one below.";

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
    return rateItem(ctx.db, { email: verified.email, orderItemId: input.orderItemId, stars: input.stars, text: input.text, now: ctx.now });
  },
});

/** The buyers' ratings of marketplace listings (average and count), for the cards; listings without any are left out. */
export const listingRatings = defineProcedure({
  name: "listingRatings",
  access: "public",
  input: z.object({ listingIds: z.array(z.string().max(100)).max(200) }),
  run: ({ input, ctx }) => ratingsOfListings(ctx.db, input.listingIds),
});

export { LIBRARY_LINK_SENT } from "~/features/market/library-schema";

/** GET /api/admin/orders and the admin's Orders view. */
export const adminOrders = defineProcedure({
  name: "adminOrders",
  access: "admin",
  input: z.object({
    q: z.string().trim().max(320).optional(),
    status: z.enum(ORDER_STATUSES).optional(),
  }),
  run: ({ input, ctx }) => searchOrders(ctx.db, input),
});

/**
 * POST /api/admin/orders/{orderId}/refund and the Orders view's Refund button:
 * the rest of a paid order goes back to the buyer. The provider refunds first
 * (Stripe, with an idempotency key per order and amount, so a repeated request
 * refunds once); then the refund is recorded exactly once, whether this call
 * or Stripe's charge.refunded webhook gets there first (refunds.server.ts).
 */
export const refundOrder = defineProcedure({
  name: "refundOrder",
  access: "admin",
  input: z.object({
    orderId: z.string().trim().min(1).max(100),
    reason: z.string().trim().max(500).optional(),
  }),
  async run({ input, user, ctx }): Promise<AdminOrderView> {
    const order = await findOrderById(ctx.db, input.orderId);
    if (!order) throw notFound("Order not found");
    if (order.status !== "paid") throw conflict(`Only a paid order can be refunded; this one is ${order.status}.`);
    const provider = providerFor(order.provider, ctx.config);
    if (!provider) throw conflict("This order was paid through Stripe, which is not configured on this server.");
    const amountCents = order.total_cents - order.refunded_cents;
    try {
      await provider.refund({
        orderId: order.id,
        paymentIntentId: order.payment_intent_id,
        amountCents,
        idempotencyKey: `refund-${order.id}-${order.refunded_cents}`,
      });
    } catch (error) {
      console.error(`Refund of order ${order.id} failed at ${order.provider}:`, error);
      throw new HttpError(502, "The payment provider did not accept the refund. Nothing was changed; please try again later.");
    }
    await ctx.db.transaction().execute((trx) =>
      recordRefund(trx, order.id, {
        refundedTotalCents: order.total_cents,
        reason: input.reason || "Refunded by the admin",
        now: ctx.now,
        actorId: user.id,
      }),
    );
    crashPoint("refund-recorded");
    announceJobs();
    const [view] = await toAdminOrderViews(ctx.db, [(await findOrderById(ctx.db, order.id))!]);
    return view;
  },
});

// What other features use of this one; they reach it only through this file.
export { activeListingForStylizedImage, marketplaceListingUrl, ownStylizedImage, parseTags, sellableFileKey, withdrawListingsForStylizedImage } from "~/features/market/listings.server";

/**
 * For the caller's data export (run by the export job): their listings, their
 * sales without the buyers' data, and the files of their listings.
 */
export const creatorMarketExportProcedure = defineProcedure({
  name: "creatorMarketExport",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => creatorMarketExport(ctx.db, user.id),
});
export {
  boughtFileKeysOfCreator,
  eraseListingsOfCreator,
  forgetBuyerDetails,
  withdrawListingsOfErasedCreator,
} from "~/features/market/creator-erasure.server";
