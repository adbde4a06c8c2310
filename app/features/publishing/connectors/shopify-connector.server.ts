import { escapeHtml } from "~/lib/html";
import type { ShopifyTokenSource } from "~/infra/shopify/shopify-admin.server";
import { ShopifyAdminClient } from "~/infra/shopify/shopify-admin.server";
import { ShopifyAuthError } from "~/infra/shopify/shopify-errors.server";
import type { MediaPolling } from "~/infra/shopify/shopify-products.server";
import { upsertShopifyProduct } from "~/infra/shopify/shopify-products.server";
import type {
  Connector,
  MarketplaceListing,
} from "~/features/publishing/connectors/connector.server";
import { styleName } from "~/lib/styles";

/** An absolute URL Shopify can fetch: the public bucket's own, or ours at the app's origin. */
function absoluteUrl(url: string, origin: string): string {
  return /^https?:\/\//.test(url) ? url : `${origin}${url}`;
}

export function shopifyDescriptionHtml(description: string, style: string): string {
  const paragraphs = description
    .split(/\n{2,}/)
    .map((text) => text.trim())
    .filter(Boolean)
    .map((text) => `<p>${escapeHtml(text).replace(/\n/g, "<br>")}</p>`);
  paragraphs.push(
    `<p>AI-generated image in the ${escapeHtml(styleName(style).toLowerCase())} style.</p>`,
  );
  return paragraphs.join("");
}

/**
 * Shopify: creates (or updates) the product in the creator's store through the
 * Admin GraphQL API and answers `live` once it is published to the Online
 * Store, with its storefront URL and a note when buyers meet a password page.
 * A token Shopify refuses (401/403), or one that can no longer be renewed,
 * answers `needs_auth` and puts the connection in its "reconnect" state.
 *
 * Shopify serves product media publicly from its CDN, so the product's image
 * is the marketplace listing's watermarked preview (640 px on the long edge,
 * listing-preview.server.ts), never the clean file. What a Shopify buyer pays
 * for is delivered from that listing when Shopify reports the order paid
 * (orders/paid, shopify-orders.server.ts): an image not yet listed on the
 * marketplace is listed first (docs/decisions/073).
 */
export function shopifyConnector(hooks: {
  /** Lists the image on the own marketplace (when it is not listed yet). */
  listOnMarketplace: () => Promise<MarketplaceListing>;
  onAuthRejected: (message: string) => Promise<void>;
  /** The OAuth connection's renewing token; without it the stored secret is used as it is (a custom app's token). */
  tokens?: ShopifyTokenSource | null;
  mediaPolling?: MediaPolling;
}): Connector {
  return {
    async publish(request, deps) {
      const credential = request.credential;
      if (!credential?.shopDomain) {
        return { status: "needs_auth", url: null, error: "Connect your Shopify store first." };
      }
      const listing = request.marketplaceListing ?? (await hooks.listOnMarketplace());
      const client = new ShopifyAdminClient(
        credential.shopDomain,
        hooks.tokens ?? credential.secret,
        deps.fetch,
      );
      try {
        const product = await upsertShopifyProduct(
          client,
          {
            title: request.content.title,
            descriptionHtml: shopifyDescriptionHtml(
              request.content.description,
              request.image.style,
            ),
            tags: [...request.content.tags, "AI generated", styleName(request.image.style)],
            price: (request.content.priceCents / 100).toFixed(2),
            imageUrl: absoluteUrl(listing.previewUrl, request.origin),
            imageAlt: request.content.title,
          },
          {
            existingProductId: request.externalId,
            onCreated: deps.onExternalId,
            signal: deps.signal,
            mediaPolling: hooks.mediaPolling,
          },
        );
        return {
          status: "live",
          url: product.url,
          error: null,
          note: product.note,
          externalId: product.productId,
          externalShop: credential.shopDomain,
        };
      } catch (error) {
        if (error instanceof ShopifyAuthError) {
          await hooks.onAuthRejected(error.message);
          return { status: "needs_auth", url: null, error: error.message };
        }
        throw error;
      }
    },
  };
}
