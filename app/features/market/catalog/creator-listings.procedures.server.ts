import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import { notFound } from "~/infra/errors.server";
import { signedMediaUrl } from "~/infra/signed-urls.server";
import { DEFAULT_PRICE, styleName, suggestedPrice } from "~/lib/styles";
import { centsToPriceString } from "~/lib/money";
import {
  listingInputSchema,
  defaultListingDescription,
  defaultListingTitle,
} from "~/features/market/catalog/listing-schema";
import {
  activeListingForStylizedImage,
  ownStylizedImage,
  parseTags,
  listStylizedImage,
  tierPricesOf,
  listingsOfCreator,
  toCreatorListing,
  withdrawListing,
} from "~/features/market/catalog/listings.server";
import { assertSaleConsent } from "~/features/market/catalog/sale-consent.server";
import { selectUpscaler } from "~/engines/upscaling/select-upscaler.server";
import { contentCredentialsFor } from "~/engines/provenance/content-credentials.server";

/** A creator's own listings: listing a stylized image on the marketplace, the form's defaults, their list, withdrawing one. */

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
    // Only faces that agreed are sold (decision record 085): 409 with the sentence.
    const image = await ownStylizedImage(ctx.db, user.id, input.stylizedImageId);
    if (image) await assertSaleConsent(ctx.db, image);
    // A listing writes its own copy and preview: refused while the volume is nearly full.
    await ensureFreeSpace(ctx.config);
    // A file smaller than its sale size is upscaled: fal.ai's Real-ESRGAN with FAL_KEY, else Lanczos-3.
    const { listing, created } = await listStylizedImage(ctx.db, ctx.files, {
      credentials: contentCredentialsFor(ctx.config),
      userId: user.id,
      input,
      now: ctx.now,
      upscaler: selectUpscaler(ctx.config),
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
    return (await listingsOfCreator(ctx.db, user.id)).map((row) =>
      toCreatorListing(row, ctx.origin),
    );
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
      store: ctx.files,
    });
    return toCreatorListing(listing, ctx.origin);
  },
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
    const tiers = listing ? tierPricesOf(listing) : null;
    return {
      stylizedImageId: image.id,
      style: image.style,
      ready: image.status === "completed" && Boolean(image.file_key),
      imageUrl: image.file_key ? signedMediaUrl(image.file_key) : null,
      listed: Boolean(listing),
      listingId: listing?.id ?? null,
      title: listing?.title ?? defaultListingTitle(name),
      description: listing?.description ?? defaultListingDescription(name),
      price: centsToPriceString(
        listing?.price_cents ?? image.price_cents ?? suggestedPrice(image.style) * 100,
      ),
      tags: listing ? parseTags(listing.tags).join(", ") : `${image.style}, portrait, ai art`,
      licensingEnabled: listing ? listing.licensing_enabled === 1 : image.licensing_enabled === 1,
      // The live listing's Extended and Exclusive prices: an update that leaves them keeps them.
      extendedPrice: tiers?.extendedPrice ?? "",
      exclusivePrice: tiers?.exclusivePrice ?? "",
      defaultPrice: DEFAULT_PRICE,
    };
  },
});
