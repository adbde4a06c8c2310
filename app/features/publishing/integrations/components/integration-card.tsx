import { Form } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import type { Platform } from "~/features/publishing/platforms";
import {
  needsConnection,
  platformState,
  SHOPIFY_CUSTOM_APP_NOTE,
  SHOPIFY_CUSTOM_APP_ONLY_NOTE,
} from "~/features/publishing/platforms";
import { ManualSetupForm } from "~/features/publishing/integrations/components/manual-setup-form";
import { PlatformBadge } from "~/features/publishing/components/platform-badge";
import { styleName } from "~/lib/styles";
import { AdobeReleaseSteps } from "~/features/publishing/releases/components/model-release-form";

export interface CardIntegration {
  apiKeyLast4: string;
  method: "oauth" | "apiKey";
  walletAddress: string | null;
  shopDomain: string | null;
  /** Adobe Stock's SFTP username. */
  accountName?: string | null;
  isActive: boolean;
  lastError: string | null;
}

/** One of the creator's model releases, as the stock agency's card lists it. */
export interface CardModelRelease {
  stylizedImageId: string;
  style: string;
  signedOn: string | null;
  createdAt: string;
  downloadUrl: string;
}

export interface IntegrationCardProps {
  platform: Platform;
  isActive: boolean;
  integration: CardIntegration | null;
  /** Shopify's OAuth app is configured on this server. */
  oauthAvailable: boolean;
  /** A ready-made link to the provider (Connect without JavaScript). */
  connectLink: string | null;
  lastResult?: SubmissionResult<string[]>;
  /** Opens the OAuth popup (with JavaScript); answers whether it did. */
  onConnect?: (platform: Platform, query: Record<string, string>) => Promise<boolean>;
  /** The creator's model releases (shown on a stock agency's card, with their PDFs). */
  modelReleases?: CardModelRelease[];
  /** Shopify: lines of paid orders that could not be delivered because Shopify sent no buyer email. */
  shopifyUndelivered?: ShopifyUndelivered | null;
}

/** Paid Shopify order lines not delivered for want of the buyer's email (protected customer data). */
export interface ShopifyUndelivered {
  count: number;
  latestAt: string | null;
}

/** One platform's card on /integrations: its fee, what the product does there, and how to connect. */
export function IntegrationCard({
  platform,
  isActive,
  integration,
  oauthAvailable,
  connectLink,
  lastResult,
  onConnect,
  modelReleases,
  shopifyUndelivered,
}: IntegrationCardProps) {
  const status = platform.closed
    ? "No longer takes listings"
    : !needsConnection(platform)
      ? platform.id === "marketplace"
        ? "Always connected"
        : "No connection needed"
      : isActive
        ? "Connected"
        : integration
          ? "Needs reconnecting"
          : "Not connected";
  const statusClass = platform.closed
    ? "bg-slate-200 text-slate-700"
    : isActive
      ? "bg-emerald-100 text-emerald-800"
      : integration
        ? "bg-orange-100 text-orange-800"
        : "bg-slate-100 text-slate-700";

  return (
    <article
      id={platform.id}
      className="card flex min-w-0 scroll-mt-24 flex-col gap-4 p-5"
      data-testid={`integration-card-${platform.id}`}
      data-connected={isActive ? "true" : "false"}
      aria-labelledby={`${platform.id}-name`}
    >
      <header className="flex flex-wrap items-start gap-3">
        <PlatformBadge platformId={platform.id} />
        <div className="min-w-[8rem] flex-1">
          <h2 id={`${platform.id}-name`} className="font-semibold text-slate-900">
            {platform.name}
          </h2>
          <p className="text-xs text-slate-500">{platform.kind}</p>
        </div>
        <span
          className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold ${statusClass}`}
          data-testid="integration-status"
        >
          {status}
        </span>
      </header>

      <dl className="grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-xs text-slate-500">Platform fee</dt>
          <dd className="font-medium text-slate-900" data-testid="integration-fee">
            {platform.fee}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">What we do there</dt>
          <dd className="font-medium text-slate-900" data-testid="platform-state">
            {platformState(platform)}
          </dd>
        </div>
      </dl>

      {platform.closed ? (
        <p
          className="rounded-lg bg-slate-100 p-3 text-sm text-slate-700"
          data-testid="integration-closed"
        >
          {platform.closed}
        </p>
      ) : (
        <p className="text-sm text-slate-600">{platform.does}</p>
      )}
      {platform.notice && !platform.closed ? (
        <p className="text-xs text-slate-500">{platform.notice}</p>
      ) : null}
      {platform.capability === "sftpSubmission" && !platform.closed ? (
        <>
          <AdobeReleaseSteps />
          {modelReleases?.length ? (
            <div className="text-sm" data-testid="integration-releases">
              <p className="font-semibold text-slate-900">Your model releases</p>
              <ul className="mt-1 space-y-1">
                {modelReleases.map((release) => (
                  <li key={release.stylizedImageId}>
                    <a href={release.downloadUrl} download className="text-brand-700 underline">
                      {styleName(release.style)} image,{" "}
                      {release.signedOn
                        ? `signed ${release.signedOn}`
                        : `uploaded ${release.createdAt.slice(0, 10)}`}{" "}
                      (PDF)
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      ) : null}

      {platform.id === "shopify" && shopifyUndelivered && shopifyUndelivered.count > 0 ? (
        <p
          role="alert"
          className="rounded-lg border border-orange-200 bg-orange-50 p-3 text-sm text-orange-900"
          data-testid="shopify-undelivered"
        >
          {shopifyUndelivered.count === 1
            ? "1 paid Shopify order line was"
            : `${shopifyUndelivered.count} paid Shopify order lines were`}{" "}
          not delivered: Shopify sent the order without the buyer&apos;s email, so Selfie Studio
          could not send the file. Attach a digital delivery app to these products in your Shopify
          admin, or ask the server&apos;s operator to have the app granted access to customer emails
          (protected customer data) in Shopify&apos;s Partner Dashboard.
          {shopifyUndelivered.latestAt
            ? ` Latest: ${shopifyUndelivered.latestAt.slice(0, 10)}.`
            : null}
        </p>
      ) : null}

      {integration ? (
        <div
          className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700"
          data-testid="integration-details"
        >
          {integration.shopDomain ? (
            <p className="break-all">Store: {integration.shopDomain}</p>
          ) : null}
          {integration.accountName ? (
            <>
              <p className="break-all" data-testid="integration-username">
                SFTP username: <span className="font-mono">{integration.accountName}</span>
              </p>
              <p>Password saved, encrypted; it worked when it was saved.</p>
            </>
          ) : (
            <p>
              {integration.method === "oauth"
                ? "Access token"
                : platform.id === "shopify"
                  ? "Admin API token"
                  : "API key"}{" "}
              ending in <span className="font-mono">{integration.apiKeyLast4}</span>
            </p>
          )}
          {integration.walletAddress ? (
            <p data-testid="integration-wallet">
              Wallet:{" "}
              <span className="font-mono break-all" title={integration.walletAddress}>
                {integration.walletAddress}
              </span>
            </p>
          ) : null}
          {!integration.isActive && integration.lastError ? (
            <p className="mt-1 text-orange-800">{integration.lastError}</p>
          ) : null}
        </div>
      ) : null}

      {!platform.closed && platform.connect === "oauth" ? (
        oauthAvailable ? (
          <OAuthConnect
            platform={platform}
            connectLink={connectLink}
            reconnect={Boolean(integration)}
            shop={integration?.shopDomain ?? ""}
            onConnect={onConnect}
          />
        ) : (
          <p className="text-xs text-slate-500" data-testid="shopify-custom-app-note">
            {SHOPIFY_CUSTOM_APP_ONLY_NOTE}
          </p>
        )
      ) : null}

      {!platform.closed &&
      platform.manualFields.length > 0 &&
      (platform.connect === "apiKey" || platform.id === "shopify") ? (
        platform.connect === "apiKey" && !integration ? (
          <ManualSetupForm platform={platform} lastResult={lastResult} />
        ) : (
          <details
            className="rounded-lg border border-slate-200 p-3"
            open={Boolean(lastResult) || (!oauthAvailable && !integration)}
          >
            <summary className="cursor-pointer text-sm font-semibold text-slate-800">
              {integration ? "Update connection" : "Set up manually"}
            </summary>
            <div className="mt-3">
              {platform.id === "shopify" && oauthAvailable ? (
                <p className="mb-3 text-xs text-slate-500" data-testid="shopify-custom-app-note">
                  {SHOPIFY_CUSTOM_APP_NOTE}
                </p>
              ) : null}
              <ManualSetupForm platform={platform} lastResult={lastResult} />
            </div>
          </details>
        )
      ) : null}

      {integration ? (
        <Form method="post" action="/integrations" className="mt-auto">
          <input type="hidden" name="intent" value="disconnect" />
          <input type="hidden" name="platform" value={platform.id} />
          <button type="submit" className="btn-ghost w-full text-red-700 hover:bg-red-50">
            Disconnect
          </button>
        </Form>
      ) : null}
    </article>
  );
}

/**
 * Connect by OAuth. Without JavaScript: a GET form asks for the store, and the
 * page then offers a plain link to the provider. With JavaScript: the same
 * form opens the popup.
 */
function OAuthConnect({
  platform,
  connectLink,
  reconnect,
  shop,
  onConnect,
}: {
  platform: Platform;
  connectLink: string | null;
  reconnect: boolean;
  shop: string;
  onConnect?: IntegrationCardProps["onConnect"];
}) {
  const label = reconnect ? "Reconnect" : "Connect";
  return (
    <div className="space-y-2">
      {connectLink ? (
        <a
          href={connectLink}
          className="btn-primary w-full"
          data-testid={`connect-link-${platform.id}`}
          onClick={async (event) => {
            if (!onConnect) return;
            event.preventDefault();
            await onConnect(platform, shop ? { shop } : {});
          }}
        >
          {label} with {platform.name}
        </a>
      ) : null}
      <Form
        method="get"
        action="/integrations"
        className="flex items-end gap-2"
        onSubmit={async (event) => {
          if (!onConnect) return;
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          await onConnect(platform, { shop: String(data.get("shop") ?? "") });
        }}
      >
        <input type="hidden" name="connect" value={platform.id} />
        <div className="flex-1">
          <label htmlFor={`${platform.id}-shop`} className="field-label">
            Store domain
          </label>
          <input
            id={`${platform.id}-shop`}
            name="shop"
            required
            defaultValue={shop}
            placeholder="my-store.myshopify.com"
            className="field-input"
            autoComplete="off"
          />
        </div>
        <button
          type="submit"
          className={connectLink ? "btn-secondary" : "btn-primary"}
          data-testid={`connect-${platform.id}`}
        >
          {connectLink ? "Use this store" : label}
        </button>
      </Form>
    </div>
  );
}
