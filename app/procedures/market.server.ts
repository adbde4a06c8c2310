import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { getFileStore } from "~/infra/file-store.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import { MARKETPLACE_MAX_LIMIT, MARKETPLACE_MAX_QUERY, MARKETPLACE_PAGE_SIZE, MAX_CART_ITEMS } from "~/lib/market";
import { listingInputSchema } from "~/lib/listing-schema";
import { browseMarketplace as browse, recordListingViews, viewDay, visitorHash } from "~/services/marketplace-search.server";
import { deriveKey } from "~/infra/keys.server";
import { cartContents } from "~/services/cart-contents.server";
import { notFound } from "~/infra/errors.server";
import { signedMediaUrl } from "~/infra/signed-urls.server";
import { DEFAULT_PRICE, STYLE_IDS, styleName, suggestedPrice } from "~/lib/styles";
import { centsToPriceString } from "~/lib/money";
import { defaultListingDescription, defaultListingTitle } from "~/lib/listing-schema";
import {
  activeListingForStylizedImage,
  ownStylizedImage,
  parseTags,
  listStylizedImage,
  listingsOfCreator,
  toCreatorListing,
  withdrawListing,
} from "~/services/listings.server";

/** The public marketplace, listing on it, and a creator's own listings. */

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

export const marketplaceQuerySchema = z.object({
  style: z.preprocess(emptyToUndefined, z.enum(STYLE_IDS, "Unknown style").optional()),
  q: z.preprocess(
    emptyToUndefined,
    z.string().trim().max(MARKETPLACE_MAX_QUERY, `Search is at most ${MARKETPLACE_MAX_QUERY} characters`).optional(),
  ),
  cursor: z.preprocess(emptyToUndefined, z.string().max(300, "Invalid cursor").optional()),
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

/** GET /api/marketplace and the /marketplace page. */
export const browseMarketplace = defineProcedure({
  name: "browseMarketplace",
  access: "public",
  input: marketplaceQuerySchema,
  run: ({ input, ctx }) =>
    browse(ctx.db, { style: input.style, q: input.q, cursor: input.cursor, limit: input.limit, listingId: input.listing }),
});

/**
 * The /marketplace page: the same page of listings, and each listing shown
 * counts as a view for its creator, once per visitor and day (not the viewer's
 * own listings; the route says when a load is a fresh view rather than a
 * revalidation). A visitor is the signed-in user, else the client address
 * with the user agent, kept only as a keyed hash.
 */
export const marketplacePage = defineProcedure({
  name: "marketplacePage",
  access: "public",
  input: marketplaceQuerySchema.extend({ countViews: z.boolean().default(false) }),
  async run({ input, user, ctx }) {
    const page = await browse(ctx.db, {
      style: input.style,
      q: input.q,
      cursor: input.cursor,
      limit: input.limit,
      listingId: input.listing,
    });
    if (input.countViews) {
      const visitor = user
        ? { userId: user.id }
        : { clientIp: ctx.clientIp, userAgent: ctx.userAgent };
      await recordListingViews(
        ctx.db,
        page.items.map((item) => item.id),
        { userId: user?.id ?? null, visitorHash: visitorHash(deriveKey("listing-views"), visitor, viewDay(ctx.now)) },
        ctx.now,
      );
    }
    return page;
  },
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
