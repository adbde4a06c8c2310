import type { Platform } from "~/features/publishing/platforms";
import type { Connector, PublishRequest } from "~/features/publishing/connectors/connector.server";
import { exportPackageConnector } from "~/features/publishing/connectors/export-package-connector.server";
import type { MarketplaceListing } from "~/features/publishing/connectors/marketplace-connector.server";
import { marketplaceConnector } from "~/features/publishing/connectors/marketplace-connector.server";
import { mintKitConnector } from "~/features/publishing/connectors/mint-kit-connector.server";
import { shopifyConnector } from "~/features/publishing/connectors/shopify-connector.server";

export interface ConnectorHooks {
  /** Creates or updates the own marketplace's listing (the selling side's service). */
  listOnMarketplace: (request: PublishRequest) => Promise<MarketplaceListing>;
  /** A platform refused the stored credential. */
  onAuthRejected: (request: PublishRequest, message: string) => Promise<void>;
}

/** The connector of a platform, by what the registry says the product can do there. */
export function connectorFor(platform: Platform, request: PublishRequest, hooks: ConnectorHooks): Connector {
  switch (platform.capability) {
    case "mintKit":
      return mintKitConnector;
    case "exportPackage":
      return exportPackageConnector;
    case "liveListing":
      if (platform.id === "marketplace") return marketplaceConnector(hooks.listOnMarketplace);
      if (platform.id === "shopify") {
        return shopifyConnector({ onAuthRejected: (message) => hooks.onAuthRejected(request, message) });
      }
  }
  throw new Error(`No connector for ${platform.id}`);
}
