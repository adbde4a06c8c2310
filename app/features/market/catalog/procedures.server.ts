import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import type { CallContext } from "~/infra/call-context.server";
import { notFound } from "~/infra/errors.server";
import { SEARCH_RATE_LIMIT, throttle } from "~/infra/rate-limit.server";
import { configuredOrigin } from "~/infra/configured-origin.server";
import { STYLE_IDS } from "~/lib/styles";
import { emptyToUndefined, pageLimit } from "~/lib/page-query";
import {
  MARKETPLACE_MAX_LIMIT,
  MARKETPLACE_MAX_QUERY,
  MARKETPLACE_PAGE_SIZE,
} from "~/features/market/types";
import { browseMarketplace as browse } from "~/features/market/catalog/marketplace-search.server";
import { countListingViews } from "~/features/market/analytics/listing-visitors.server";
import { marketplaceListingUrl } from "~/features/market/catalog/listings.server";
import { creatorByHandle, listingPage } from "~/features/market/catalog/listing-page.server";
import { ensureSocialCard } from "~/features/market/catalog/social-card.server";
import {
  cachedSitemap,
  robotsTxt,
  sitemapIndexXml,
  sitemapPartXml,
  sitemapParts,
  type SitemapPart,
} from "~/features/market/catalog/sitemap.server";
import { ratingsOfListings } from "~/features/market/catalog/ratings.server";

/** The public marketplace: browsing and search, a listing's page, a creator's storefront, the sitemap and robots.txt, ratings for the cards. */

/** The characters of a marketplace cursor (encodeCursor: base64url without padding). */
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export const marketplaceQuerySchema = z.object({
  style: z.preprocess(emptyToUndefined, z.enum(STYLE_IDS, "Unknown style").optional()),
  q: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .max(MARKETPLACE_MAX_QUERY, `Search is at most ${MARKETPLACE_MAX_QUERY} characters`)
      .optional(),
  ),
  cursor: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .max(300, "Invalid cursor")
      .regex(BASE64URL, "Invalid cursor")
      .meta({
        description:
          "The `nextCursor` of the page before, sent back as it came: an opaque base64url token.",
      })
      .optional(),
  ),
  limit: z.preprocess(
    emptyToUndefined,
    pageLimit(MARKETPLACE_MAX_LIMIT).default(MARKETPLACE_PAGE_SIZE),
  ),
  listing: z.preprocess(emptyToUndefined, z.string().max(100).optional()),
});

/**
 * One page of live listings for the marketplace's query (its style, search,
 * cursor and size), within `scope` (one creator's, or starting at a listing);
 * a text search is limited per client address.
 */
async function marketplacePage(
  ctx: CallContext,
  input: Omit<z.output<typeof marketplaceQuerySchema>, "listing">,
  scope: { listingId?: string; creatorId?: string },
) {
  if (input.q) await throttle(ctx, SEARCH_RATE_LIMIT);
  return browse(ctx.db, {
    style: input.style,
    q: input.q,
    cursor: input.cursor,
    limit: input.limit,
    ...scope,
  });
}

/** Who is looking at listings, for the once-a-day view counts. */
const visitOf = (ctx: CallContext, user: { id: string } | null) => ({
  user,
  clientIp: ctx.clientIp,
  now: ctx.now,
});

/**
 * GET /api/marketplace and the /marketplace page: a page of public listings.
 * When the page says the load is a fresh view (ctx.countsViews), each listing
 * shown counts as a view for its creator, once per visitor and day (not the
 * viewer's own listings). A visitor is the signed-in user, else the client
 * address (an IPv6 client's /64), kept only as a keyed hash; the views are
 * written in batches (listing-view-counts.server.ts). A search (?q=)
 * counts against the caller's address (SEARCHES_PER_ADDRESS a minute; past
 * it 429 with Retry-After); browsing without one does not.
 */
export const browseMarketplace = defineProcedure({
  name: "browseMarketplace",
  access: "public",
  input: marketplaceQuerySchema,
  async run({ input, user, ctx }) {
    const page = await marketplacePage(ctx, input, { listingId: input.listing });
    if (ctx.countsViews)
      countListingViews(
        ctx.db,
        visitOf(ctx, user),
        page.items.map((item) => item.id),
      );
    // Each item's own page, absolute, for clients that link to it.
    const origin = pagesOrigin(ctx);
    return {
      ...page,
      items: page.items.map((item) => ({ ...item, url: marketplaceListingUrl(origin, item.id) })),
    };
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
    const page = PUBLIC_NAME.test(input.listingId)
      ? await listingPage(ctx.db, input.listingId, pagesOrigin(ctx))
      : null;
    if (!page) throw notFound("Listing not found");
    const { listing, socialCard } = page;
    try {
      await ensureSocialCard(ctx.files, {
        previewKey: socialCard.previewKey,
        title: listing.title,
        priceCents: listing.priceCents,
      });
    } catch (error) {
      // The page stands without its card; the next visit tries again.
      console.warn(
        `Could not make the social card of listing ${listing.id}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return page;
  },
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
    const creator = PUBLIC_NAME.test(input.handle)
      ? await creatorByHandle(ctx.db, input.handle, origin)
      : null;
    if (!creator) throw notFound("Creator not found");
    const page = await marketplacePage(ctx, input, { creatorId: creator.id });
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
    const parts = await cachedSitemap("parts", async () =>
      JSON.stringify(await sitemapParts(ctx.db)),
    );
    const known: SitemapPart[] = JSON.parse(parts ?? "[]");
    if (input.kind === undefined)
      return cachedSitemap(`index\n${origin}`, async () => sitemapIndexXml(origin, known));
    const part = known.find(
      (candidate) => candidate.kind === input.kind && `${candidate.start}.xml` === input.part,
    );
    if (!part) return null;
    return cachedSitemap(`${part.kind}\n${part.start}\n${origin}`, () =>
      sitemapPartXml(ctx.db, origin, part.kind, part.start),
    );
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
  run: ({ input, user, ctx }) => countListingViews(ctx.db, visitOf(ctx, user), input.listingIds),
});

/** The buyers' ratings of marketplace listings (average and count), for the cards; listings without any are left out. */
export const listingRatings = defineProcedure({
  name: "listingRatings",
  access: "public",
  input: z.object({ listingIds: z.array(z.string().max(100)).max(200) }),
  run: ({ input, ctx }) => ratingsOfListings(ctx.db, input.listingIds),
});
