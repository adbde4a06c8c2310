import type { ApiRoute } from "~/infra/api-entry.server";
import { downloading, shaping } from "~/infra/api-entry.server";
import { withPlatformNames } from "~/features/publishing/platforms";
import {
  completeOAuthConnection,
  createIntegration,
  deleteIntegration,
  oauthAuthorize,
  creatorIntegrations,
} from "~/features/publishing/integrations/procedures.server";
import {
  imagePublications,
  launchMarketing,
  postToMarketplaces,
} from "~/features/publishing/publications/launch.procedures.server";
import { publicationDownload } from "~/features/publishing/publications/procedures.server";
import {
  modelReleaseDownload,
  signModelReleaseProcedure,
  uploadModelRelease,
} from "~/features/publishing/releases/procedures.server";
import { receiveShopifyWebhook } from "~/features/publishing/shopify/webhooks.procedures.server";
import { startShopifyInstallation } from "~/features/publishing/shopify/installs.procedures.server";

/**
 * The launch answer's documented fields. `viewsGenerated` and `estimatedEarnings`
 * are the product spec's estimates (150,000 views per platform launched, one sale
 * per 10,000 views at the price), kept for API clients; they are not measurements,
 * and the screens show them only with DEMO_FIGURES on, labelled (decision 087).
 */
const LAUNCH_ANSWER_SCHEMA = {
  type: "object",
  properties: {
    imageId: { type: "string" },
    platformsLaunched: {
      type: "integer",
      description: "Platforms where the image is live, ready to mint, exported or submitted.",
    },
    viewsGenerated: {
      type: "integer",
      description:
        "The product spec's estimate, not a measurement: 150,000 potential views per platform launched.",
    },
    estimatedEarnings: {
      type: "number",
      description:
        "The product spec's estimate, not a measurement: one sale per 10,000 estimated views at the price, in the currency's major unit.",
    },
    price: { type: "string", description: "The listing's price, in the currency's major unit." },
    platforms: {
      type: "array",
      description:
        "Each chosen platform's real state (queued, live, needs_auth, ready_to_mint, ...).",
      items: { type: "object" },
    },
  },
};

/**
 * The /api endpoints of publishing: Shopify's webhook, integrations and OAuth, launching and
 * posting to platforms, publications and their kits, and model releases. The table
 * (app/routes/api+/api-route-table.server.ts) puts every feature's entries together, in a fixed
 * order of features; the router answers from it and the OpenAPI document describes it. The OAuth
 * callback and the Shopify install answer a page or a redirect by hand: their handlers sit beside
 * the table, which joins them to these entries.
 */
export const PUBLISHING_API: readonly ApiRoute[] = [
  {
    method: "POST",
    path: "/api/webhooks/shopify",
    summary:
      "The Shopify app's webhooks (app/uninstalled, orders/paid, customers/data_request, customers/redact, shop/redact; the topic in X-Shopify-Topic). 401 unless X-Shopify-Hmac-Sha256 is the base64 HMAC-SHA256 of the raw body under the app's client secret.",
    procedure: receiveShopifyWebhook,
    auth: "none",
    input: "signed-json",
    signature: {
      header: "X-Shopify-Hmac-Sha256",
      description: "Base64 HMAC-SHA256 of the raw body under the Shopify app's client secret.",
      body: "A Shopify webhook payload, exactly as Shopify signed it.",
    },
    status: 200,
    errors: [400, 401, 404],
    rawBody: {
      maxBytes: 512 * 1024,
      as: "bytes",
      headers: {
        hmac: "X-Shopify-Hmac-Sha256",
        topic: "X-Shopify-Topic",
        shop: "X-Shopify-Shop-Domain",
        webhookId: ["X-Shopify-Webhook-Id", "X-Shopify-Event-Id"],
        triggeredAt: "X-Shopify-Triggered-At",
      },
    },
  },
  shaping({
    method: "GET",
    path: "/api/marketplace-integrations",
    summary: "The caller's connected platforms by display name, the own marketplace first.",
    procedure: creatorIntegrations,
    operationId: "creatorIntegrationNames",
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    shape: (list) => withPlatformNames(list),
  }),
  {
    method: "GET",
    path: "/api/token-marketplace-integrations",
    summary: "The caller's connected platforms by id, the own marketplace first.",
    procedure: creatorIntegrations,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "POST",
    path: "/api/token-marketplace-integrations",
    summary:
      "Connect a platform with an API key; the key is never echoed (only its last 4). A Shopify token or an Adobe Stock login is checked with the vendor first, a few times per creator in 15 minutes (429 with Retry-After past that).",
    procedure: createIntegration,
    auth: "bearer-or-cookie",
    input: "json",
    status: 201,
    errors: [429],
  },
  {
    method: "DELETE",
    path: "/api/token-marketplace-integrations/{platform}",
    summary: "Disconnect a platform; its stored credential is deleted.",
    procedure: deleteIntegration,
    auth: "bearer-or-cookie",
    input: "none",
    status: 204,
  },
  {
    method: "GET",
    path: "/api/oauth/{platform}/authorize",
    summary: "Start an OAuth connection; answers `{authUrl}` to open (in a popup or the page).",
    procedure: oauthAuthorize,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/oauth/{platform}/callback",
    summary:
      "Where the OAuth provider sends the creator back: a page that closes the popup, or a redirect to /integrations.",
    procedure: completeOAuthConnection,
    auth: "cookie",
    input: "provider-query",
    status: 200,
    answer: "page-or-redirect",
  },
  {
    method: "GET",
    path: "/api/oauth/shopify/install",
    summary:
      "The Shopify app's App URL, where Shopify sends a merchant who installs or opens the app from their admin: a redirect to Shopify's authorize page (or to /integrations for a store connected already). 400 unless `hmac` is the hex HMAC-SHA256 under the app's client secret of the other parameters sorted by name, `shop` a myshopify.com domain and `timestamp` within 90 seconds.",
    procedure: startShopifyInstallation,
    auth: "cookie",
    input: "provider-query",
    status: 302,
    answer: "redirect",
    errors: [400],
  },
  {
    method: "POST",
    path: "/api/marketplace/launch",
    summary:
      "Publish a stylized image to each chosen platform; answers what happened on each. `extendedPrice` and `exclusivePrice` (optional, each at least `price`) offer the Extended and Exclusive licences on the own marketplace; absent, the tier is not offered. 409 when its face did not agree: another person's face without a model release, or a photo not compared with the creator's verified face (only faces that agreed are sold), and when the image was sold with an Exclusive license (never published again).",
    procedure: launchMarketing,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    answerSchema: LAUNCH_ANSWER_SCHEMA,
    errors: [404, 409, 429],
  },
  {
    method: "POST",
    path: "/api/marketplace/post",
    summary:
      "Post a stylized image to each chosen platform (the own marketplace too); answers a result per platform. 409 when its face did not agree: another person's face without a model release, or a photo not compared with the creator's verified face (only faces that agreed are sold).",
    procedure: postToMarketplaces,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [404, 409, 429],
  },
  {
    method: "GET",
    path: "/api/publications",
    summary: "A stylized image's state on every platform it was sent to.",
    procedure: imagePublications,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    errors: [404],
  },
  downloading({
    method: "GET",
    path: "/api/publications/{id}/download",
    summary: "The owner's mint kit or export package (a zip), through a signed, expiring link.",
    procedure: publicationDownload,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    answer: "zip",
    errors: [404],
  }),
  downloading({
    method: "GET",
    path: "/api/token-stylized-images/{id}/model-release",
    summary: "The model release of a stylized image (a PDF), for its owner only.",
    procedure: modelReleaseDownload,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    answer: "pdf",
    errors: [404],
  }),
  {
    method: "POST",
    path: "/api/token-stylized-images/{id}/model-release",
    summary:
      "Sign a model release for yourself for a stylized image (your name, the date, the same name typed as the signature, confirm, and optionally `drawnSignature`: a PNG data URL of at most 2000 pixels a side and 1,000,000 in all, else 400); kept as a PDF, replacing any before. Adobe Stock submissions need one.",
    procedure: signModelReleaseProcedure,
    auth: "bearer-or-cookie",
    input: "json",
    status: 201,
    errors: [404, 415, 507],
  },
  {
    method: "PUT",
    path: "/api/token-stylized-images/{id}/model-release",
    summary:
      "Upload the signed model release of the person shown (multipart, one PDF in the field `release`, at most 10 MB), replacing any before. The PDF is opened apart from the server, within limits (1.25 s, and what its streams unpack to): one that cannot be opened within them is refused (415); while other uploads are being checked, 503.",
    procedure: uploadModelRelease,
    auth: "bearer-or-cookie",
    input: "multipart",
    uploadField: {
      name: "release",
      contentType: "application/pdf",
      description: "The signed model release, a PDF of at most 10 MB.",
    },
    status: 201,
    errors: [404, 415, 503, 507],
  },
];
