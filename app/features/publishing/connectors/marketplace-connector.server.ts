import type {
  Connector,
  MarketplaceListing,
  PublishRequest,
} from "~/features/publishing/connectors/connector.server";

export type { MarketplaceListing };

/**
 * The product's own marketplace: creates or updates the listing through the
 * selling side's listing service (passed in, so there is one implementation of
 * listings) and answers `live` with its /marketplace URL.
 */
export function marketplaceConnector(
  list: (request: PublishRequest) => Promise<MarketplaceListing>,
): Connector {
  return {
    async publish(request) {
      const listing = await list(request);
      return { status: "live", url: listing.url, error: null, listingId: listing.listingId };
    },
  };
}
