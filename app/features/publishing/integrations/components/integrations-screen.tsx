import type { SubmissionResult } from "@conform-to/react";
import { PageHeader } from "~/ui/page-header";
import type { PlatformId } from "~/features/publishing/platforms";
import { getPlatform } from "~/features/publishing/platforms";
import type {
  CardIntegration,
  CardModelRelease,
  ShopifyUndelivered,
} from "~/features/publishing/integrations/components/integration-card";
import { IntegrationCard } from "~/features/publishing/integrations/components/integration-card";
import { useHydrated } from "~/ui/use-hydrated";
import { useOAuthPopup } from "~/features/publishing/integrations/components/use-oauth-popup";
import { AlertMessage } from "~/ui/alert-message";

export interface IntegrationsScreenData {
  shopifyOAuth: boolean;
  /** The store asked for with ?shop= was not a myshopify.com domain. */
  shopError: string | null;
  platforms: { platform: PlatformId; isActive: boolean; integration: CardIntegration | null }[];
  /** Plain links to providers, for Connect without JavaScript. */
  connectLinks: Partial<Record<PlatformId, string>>;
  /** The creator's model releases (newest first), for the stock agency's card. */
  modelReleases?: CardModelRelease[];
  /** Paid Shopify order lines not delivered for want of the buyer's email. */
  shopifyUndelivered?: ShopifyUndelivered | null;
}

/** The signed-in /integrations screen: a card per platform with its fee. */
export function IntegrationsScreen({
  data,
  lastResult,
}: {
  data: IntegrationsScreenData;
  lastResult?: SubmissionResult<string[]>;
}) {
  const hydrated = useHydrated();
  const { connect } = useOAuthPopup({
    isConnected: (platform) => data.platforms.some((p) => p.platform === platform && p.isActive),
  });
  const resultPlatform = lastResult?.initialValue?.platform;

  return (
    <div className="mx-auto max-w-7xl px-4 py-8" data-testid="integrations-signed-in">
      <PageHeader
        title="Integrations"
        subtitle="Connect the platforms you sell on. Fees are each platform's own."
        back={{ to: "/dashboard", label: "Back to Dashboard", look: "btn-secondary" }}
      />
      {data.shopError ? <AlertMessage margin="mt-6">{data.shopError}</AlertMessage> : null}
      <div className="mt-8 grid gap-5 md:grid-cols-2 xl:grid-cols-3">
        {data.platforms.map(({ platform, isActive, integration }) => (
          <IntegrationCard
            key={platform}
            platform={getPlatform(platform)}
            isActive={isActive}
            integration={integration}
            oauthAvailable={data.shopifyOAuth}
            connectLink={data.connectLinks[platform] ?? null}
            lastResult={resultPlatform === platform ? lastResult : undefined}
            onConnect={hydrated ? (entry, query) => connect(entry.id, query) : undefined}
            modelReleases={data.modelReleases}
            shopifyUndelivered={data.shopifyUndelivered}
          />
        ))}
      </div>
    </div>
  );
}
