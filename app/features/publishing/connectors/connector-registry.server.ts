import type { Platform } from "~/features/publishing/platforms";
import type { Connector, PublishRequest } from "~/features/publishing/connectors/connector.server";
import { exportPackageConnector } from "~/features/publishing/connectors/export-package-connector.server";
import type { MarketplaceListing } from "~/features/publishing/connectors/marketplace-connector.server";
import { marketplaceConnector } from "~/features/publishing/connectors/marketplace-connector.server";
import { mintKitConnector } from "~/features/publishing/connectors/mint-kit-connector.server";
import { shopifyConnector } from "~/features/publishing/connectors/shopify-connector.server";
import type { ShopifyTokenSource } from "~/infra/shopify/shopify-admin.server";
import type { MediaPolling } from "~/infra/shopify/shopify-products.server";
import { sftpSubmissionConnector } from "~/features/publishing/connectors/sftp-submission-connector.server";
import type { SftpServerAddress } from "~/features/publishing/integrations/sftp-connections.server";
import type { SftpConnect } from "~/infra/sftp/sftp-client.server";

export interface ConnectorHooks {
  /** Creates or updates the own marketplace's listing (the selling side's service). */
  listOnMarketplace: (request: PublishRequest) => Promise<MarketplaceListing>;
  /** A platform refused the stored credential. */
  onAuthRejected: (request: PublishRequest, message: string) => Promise<void>;
  /** Shopify's renewing access token for an OAuth connection (null for a custom app's fixed token). */
  shopifyTokens?: () => ShopifyTokenSource | null;
  shopifyMediaPolling?: MediaPolling;
  /** For platforms that take files over SFTP: the server and (tests) how to connect. */
  sftpSubmission?: () => { server: SftpServerAddress; connect?: SftpConnect };
}

/** The connector of a platform, by what the registry says the product can do there. */
export function connectorFor(
  platform: Platform,
  request: PublishRequest,
  hooks: ConnectorHooks,
): Connector {
  switch (platform.capability) {
    case "mintKit":
      return mintKitConnector;
    case "exportPackage":
      return exportPackageConnector;
    case "sftpSubmission": {
      const setup = hooks.sftpSubmission?.();
      if (!setup) break;
      return sftpSubmissionConnector({
        ...setup,
        onAuthRejected: (message) => hooks.onAuthRejected(request, message),
      });
    }
    case "liveListing":
      if (platform.id === "marketplace") return marketplaceConnector(hooks.listOnMarketplace);
      if (platform.id === "shopify") {
        return shopifyConnector({
          listOnMarketplace: () => hooks.listOnMarketplace(request),
          onAuthRejected: (message) => hooks.onAuthRejected(request, message),
          tokens: hooks.shopifyTokens?.() ?? null,
          mediaPolling: hooks.shopifyMediaPolling,
        });
      }
  }
  throw new Error(`No connector for ${platform.id}`);
}
