import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { signedMediaUrl } from "~/infra/signed-urls.server";
import { DEFAULT_PRICE, styleName, suggestedPrice } from "~/lib/styles";
import { centsToPriceString } from "~/lib/money";
import {
  defaultListingDescription,
  defaultListingTitle,
} from "~/features/market/catalog/listing-schema";
import { activeListingForStylizedImage, parseTags } from "~/features/market/public.server";
import { isPlatformId, PLATFORMS } from "~/features/publishing/platforms";
import type { PlatformId } from "~/features/publishing/platforms";
import { launchSchema, postSchema } from "~/features/publishing/schemas";
import type { PublicationStatus } from "~/features/publishing/types";
import { platformConnections } from "~/features/publishing/integrations/integrations.server";
import { publicationsOfImage } from "~/features/publishing/publications/publications.server";
import {
  completedImage,
  launchFigures,
  ownImage,
  platformResults,
  publishToPlatforms,
} from "~/features/publishing/publications/platform-publishing.server";

// Launching an image to the platforms (the dashboard's launch form, the list-for-sale dialog) and its state there.

export type { PlatformResult } from "~/features/publishing/publications/platform-publishing.server";

/** POST /api/marketplace/launch and the dashboard's launch form. */
export const launchMarketing = defineProcedure({
  name: "launchMarketing",
  access: "user",
  input: launchSchema,
  async run({ input, user, ctx }) {
    const image = await completedImage(ctx, user, input.imageId);
    const terms = saleTerms(input);
    const platforms = await publishToPlatforms(ctx, user, {
      imageId: image.id,
      platforms: input.platforms,
      content: {
        ...terms,
        tags: input.tags,
        licensingEnabled: input.enableLicensing,
        nftEnabled: input.enableNFT,
      },
    });
    return {
      imageId: image.id,
      ...launchFigures(platforms, terms.priceCents),
      estimate: true as const,
      platforms,
    };
  },
});

/** POST /api/marketplace/post and the list-for-sale dialog. */
export const postToMarketplaces = defineProcedure({
  name: "postToMarketplaces",
  access: "user",
  input: postSchema,
  async run({ input, user, ctx }) {
    const image = await completedImage(ctx, user, input.imageId);
    const listing = await activeListingForStylizedImage(ctx.db, image.id);
    const platforms = await publishToPlatforms(ctx, user, {
      imageId: image.id,
      platforms: input.platforms,
      content: {
        ...saleTerms(input),
        tags: listing ? parseTags(listing.tags) : [styleName(image.style)],
        licensingEnabled: listing ? listing.licensing_enabled === 1 : image.licensing_enabled === 1,
        nftEnabled: listing ? listing.nft_enabled === 1 : image.nft_enabled === 1,
      },
    });
    return {
      results: platforms.map((platform) => ({
        success: !failedStatus(platform.status),
        platform: platform.id,
        name: platform.name,
        status: platform.status,
        ...(platform.url ? { url: platform.url } : {}),
        ...(platform.authUrl ? { authUrl: platform.authUrl } : {}),
        ...(platform.error && failedStatus(platform.status) ? { error: platform.error } : {}),
        ...(platform.note ? { note: platform.note } : {}),
        ...(platform.modelReleaseUrl !== undefined
          ? { modelReleaseUrl: platform.modelReleaseUrl }
          : {}),
      })),
    };
  },
});

/**
 * What a launch or a list-for-sale sends every platform of the sale: its
 * words, its price and the Extended and Exclusive prices in cents (null: not
 * offered).
 */
function saleTerms(input: {
  title: string;
  description: string;
  price: number;
  extendedPrice?: number;
  exclusivePrice?: number;
}) {
  const cents = (dollars: number | undefined) =>
    dollars === undefined ? null : Math.round(dollars * 100);
  return {
    title: input.title,
    description: input.description,
    priceCents: Math.round(input.price * 100),
    extendedPriceCents: cents(input.extendedPrice),
    exclusivePriceCents: cents(input.exclusivePrice),
  };
}

function failedStatus(status: PublicationStatus): boolean {
  return status === "failed" || status === "needs_auth";
}

/** A stylized image's state on every platform it was sent to (the launch result view, the dashboard). */
export const imagePublications = defineProcedure({
  name: "imagePublications",
  access: "user",
  input: z.object({ imageId: z.string().trim().min(1).max(100) }),
  async run({ input, user, ctx }) {
    const image = await ownImage(ctx, user, input.imageId);
    const rows = await publicationsOfImage(ctx.db, user.id, image.id);
    const platforms = await platformResults(ctx, user, rows);
    return { imageId: image.id, style: image.style, platforms };
  },
});

/**
 * The launch result page (after a launch without JavaScript): the launched
 * platforms' current states, with the same counts and estimates as the launch.
 */
export const launchResult = defineProcedure({
  name: "launchResult",
  access: "user",
  input: z.object({
    imageId: z.string().trim().min(1).max(100),
    platforms: z
      .string()
      .max(400)
      .transform((text) => text.split(",").filter(isPlatformId)),
  }),
  async run({ input, user, ctx }) {
    const state = await imagePublications.run({ input: { imageId: input.imageId }, user, ctx });
    const platforms = state.platforms.filter((platform) => input.platforms.includes(platform.id));
    const rows = await publicationsOfImage(ctx.db, user.id, input.imageId);
    const priceCents =
      rows.find((row) => input.platforms.includes(row.platform as PlatformId))?.price_cents ??
      DEFAULT_PRICE * 100;
    return {
      imageId: input.imageId,
      ...launchFigures(platforms, priceCents),
      platforms,
    };
  },
});

/** What the launch form and the list-for-sale dialog start from. */
export const publishFormDefaults = defineProcedure({
  name: "publishFormDefaults",
  access: "user",
  input: z.object({ imageId: z.string().trim().min(1).max(100) }),
  async run({ input, user, ctx }) {
    const image = await ownImage(ctx, user, input.imageId);
    const listing = await activeListingForStylizedImage(ctx.db, image.id);
    const connections = await platformConnections(ctx.db, user.id);
    const name = styleName(image.style);
    return {
      imageId: image.id,
      style: image.style,
      ready: image.status === "completed" && Boolean(image.file_key),
      /** The image the forms put on sale (signed, expiring), shown beside them; null until it is made. */
      previewUrl:
        image.status === "completed" && (image.optimized_file_key ?? image.file_key)
          ? signedMediaUrl((image.optimized_file_key ?? image.file_key)!)
          : null,
      title: listing?.title ?? defaultListingTitle(name),
      description: listing?.description ?? defaultListingDescription(name),
      price: centsToPriceString(
        listing?.price_cents ?? image.price_cents ?? suggestedPrice(image.style) * 100,
      ),
      /** The live listing's Extended and Exclusive prices, so updating it keeps them unless changed. */
      extendedPrice:
        listing?.extended_price_cents != null
          ? centsToPriceString(listing.extended_price_cents)
          : null,
      exclusivePrice:
        listing?.exclusive_price_cents != null
          ? centsToPriceString(listing.exclusive_price_cents)
          : null,
      licensingEnabled: listing ? listing.licensing_enabled === 1 : image.licensing_enabled === 1,
      nftEnabled: listing ? listing.nft_enabled === 1 : image.nft_enabled === 1,
      platforms: PLATFORMS.map((platform) => {
        const connection = connections.find((c) => c.platform === platform.id);
        return {
          id: platform.id,
          name: platform.name,
          connected: connection?.isActive ?? false,
          closed: Boolean(platform.closed),
        };
      }),
    };
  },
});
