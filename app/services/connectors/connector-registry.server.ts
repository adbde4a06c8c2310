import type { Platform } from "~/lib/platforms";
import type { Connector, PublishRequest } from "~/services/connectors/connector.server";
import { exportPackageConnector } from "~/services/connectors/export-package-connector.server";
import type { MarketplaceListing } from "~/services/connectors/marketplace-connector.server";
import { marketplaceConnector } from "~/services/connectors/marketplace-connector.server";
import { mintKitConnector } from "~/services/connectors/mint-kit-connector.server";
import { shopifyConnector } from "~/services/connectors/shopify-connector.server";

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
