import type { ApiRoute } from "~/web/api-router.server";
import { responding } from "~/web/api-router.server";
import { jsonResponse } from "~/web/http.server";
import { tokenSessionResponse } from "~/web/token-session.server";
import { withPlatformNames } from "~/features/publishing/platforms";
import { fileDownload } from "~/routes/api+/file-download.server";
import { loginRedirect } from "~/routes/api+/login-redirect.server";
import { oauthCallback } from "~/routes/api+/oauth-callback.server";
import { shopifyInstall } from "~/routes/api+/shopify-install.server";
import { serveOpenApiDocument } from "~/routes/api+/openapi-document.server";
import {
  adminAuditLog,
  adminImages,
  adminStats,
} from "~/features/admin/procedures/stats-and-audit.server";
import { adminCreateUser, adminUser, adminUsers } from "~/features/admin/procedures/users.server";
import { changeUserStatus } from "~/features/admin/procedures/bans.server";
import { adminCancelJob, adminJobs, adminRetryJob } from "~/features/admin/procedures/jobs.server";
import { eraseMyAccount, eraseUser } from "~/features/erasure/procedures/erasure.server";
import { accountExport, requestAccountExport } from "~/features/accounts/procedures/export.server";
import {
  account,
  confirmEmailChange,
  requestEmailChange,
  updateAccount,
  uploadAvatar,
} from "~/features/accounts/procedures/profile.server";
import {
  currentUser,
  endTokenSession,
  register,
  signIn,
} from "~/features/accounts/procedures/sign-in.server";
import {
  requestPasswordReset,
  resetPassword,
} from "~/features/accounts/procedures/password-reset.server";
import {
  changePassword,
  mySessions,
  revokeSession,
} from "~/features/accounts/procedures/security.server";
import {
  completeOAuthConnection,
  createIntegration,
  deleteIntegration,
  oauthAuthorize,
  creatorIntegrations,
} from "~/features/publishing/procedures/integrations.server";
import {
  imagePublications,
  launchMarketing,
  postToMarketplaces,
} from "~/features/publishing/procedures/launch.server";
import { publicationDownload } from "~/features/publishing/procedures/publications.server";
import {
  modelReleaseDownload,
  signModelReleaseProcedure,
  uploadModelRelease,
} from "~/features/publishing/procedures/model-releases.server";
import { receiveShopifyWebhook } from "~/features/publishing/procedures/shopify-webhooks.server";
import { startShopifyInstallation } from "~/features/publishing/procedures/shopify-installs.server";
import {
  giveFaceConsent,
  withdrawFaceConsentProcedure,
} from "~/features/privacy/procedures/face-consent.server";
import { adminOrders, refundOrder } from "~/features/market/procedures/admin-orders.server";
import { adminPayouts } from "~/features/payouts/procedures/admin-payouts.server";
import { checkout } from "~/features/market/procedures/cart-and-checkout.server";
import { paymentStatus } from "~/features/market/procedures/payment-status.server";
import { receiveStripeWebhook } from "~/features/market/procedures/webhooks.server";
import { browseMarketplace } from "~/features/market/procedures/catalog.server";
import { myListings } from "~/features/market/procedures/creator-listings.server";
import { requestLibraryLink } from "~/features/market/procedures/downloads-and-library.server";
import { creatorAnalytics } from "~/features/market/procedures/creator-insights.server";
import {
  creatorEarnings,
  creatorPayouts,
  creatorStats,
} from "~/features/payouts/procedures/earnings.server";
import { startPayoutOnboarding } from "~/features/payouts/procedures/accounts-and-onboarding.server";
import {
  deleteImage,
  getImage,
  listImages,
  uploadImage,
} from "~/features/studio/procedures/images.server";
import {
  deleteStylizedImage,
  getStylizedImage,
  listStylizedImages,
  rerollStyle,
  stylizeAllStyles,
  stylizeImage,
} from "~/features/studio/procedures/styles.server";
import { optimizeImage } from "~/features/studio/procedures/optimize.server";

/**
 * Every /api endpoint, declared once: the router (app/web/api-router.server.ts,
 * mounted by the /api splat route `$.ts`) answers from this table, and the
 * OpenAPI document served at GET /api/openapi.json is built from it. An entry
 * names the method, the path, the procedure and how the request becomes its
 * input (`input`, `rawBody`), the success status, and how the result becomes
 * the answer (`respond`), or a hand-written `handle` for what is not a
 * procedure's JSON (redirects, the OAuth result page, this document).
 */

export type { ApiAnswer, ApiAuth, ApiInput, ApiMethod, ApiRoute } from "~/web/api-router.server";
export { routeAccess } from "~/web/api-router.server";

export const API_ROUTES: readonly ApiRoute[] = [
  // Accounts
  responding({
    method: "POST",
    path: "/api/token-login",
    summary: "Sign in with email and password; answers a bearer token and the user.",
    procedure: signIn,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [429, 503],
    respond: (user, _caller, ctx) => tokenSessionResponse(user, ctx),
  }),
  {
    method: "POST",
    path: "/api/register",
    summary:
      "Register (while registration is open); always 202 with the same answer: a new email is mailed a link that creates the account (valid 24 hours), an email in use is mailed a notice. Nobody is signed in; sign in with POST /api/token-login once the account exists.",
    procedure: register,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [429, 503],
  },
  {
    method: "POST",
    path: "/api/forgot-password",
    summary:
      "Ask for a password reset link by email; always 202 with the same answer, and a known account that is not banned is mailed a single-use link valid for 60 minutes.",
    procedure: requestPasswordReset,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [429],
  },
  {
    method: "POST",
    path: "/api/reset-password",
    summary:
      "Set a new password with a reset link's token; every session and API token of the account ends and the link stops working.",
    procedure: resetPassword,
    auth: "bearer-or-cookie",
    input: "json",
    status: 204,
    errors: [503],
  },
  {
    method: "POST",
    path: "/api/token-logout",
    summary: "End the bearer token the call is made with.",
    procedure: endTokenSession,
    auth: "bearer-or-cookie",
    input: "none",
    status: 204,
  },
  {
    method: "GET",
    path: "/api/token-user",
    summary: "The signed-in user.",
    procedure: currentUser,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/login",
    summary: "Redirect to the sign-in page, keeping a same-site redirectTo.",
    operationId: "loginRedirect",
    access: "public",
    auth: "none",
    input: "none",
    status: 302,
    answer: "redirect",
    query: [{ name: "redirectTo", description: "A same-site path to return to after signing in." }],
    handle: loginRedirect,
  },

  // Account: the password change, the user's web sessions and API tokens
  {
    method: "POST",
    path: "/api/account/password",
    summary:
      "Change the password with the current one; every other web session and API token of the user ends, the one making the call keeps working. 400 for a wrong current password or a short or common new one.",
    procedure: changePassword,
    auth: "bearer-or-cookie",
    input: "json",
    status: 204,
    errors: [429, 503],
  },
  {
    method: "GET",
    path: "/api/account/sessions",
    summary:
      "The user's web sessions and API tokens that still work: kind, when made and last used, the User-Agent it was made from, and whether it is the one making the call.",
    procedure: mySessions,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
  },
  {
    method: "DELETE",
    path: "/api/account/sessions/{id}",
    summary:
      "End one of the user's web sessions or API tokens (by the id the list shows): it answers 401 from its next request. 404 for an id that is not the user's.",
    procedure: revokeSession,
    auth: "bearer-or-cookie",
    input: "none",
    status: 204,
    errors: [404],
  },
  // The account: profile, photo and email change
  {
    method: "GET",
    path: "/api/account",
    summary:
      "The caller's own account: names, email, profile photo, public handle and bio, an email change waiting for its link (`pendingEmail`), and the face-processing consent.",
    procedure: account,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "PATCH",
    path: "/api/account",
    summary:
      "Change any of `firstName`, `lastName`, `handle` and `bio` (the others stay; an empty or null handle or bio clears it). A handle is 3–30 characters of a–z, 0–9 and `-`, lower-cased, and not reserved; 409 when another account has it. Answers the account.",
    procedure: updateAccount,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [409],
  },
  {
    method: "POST",
    path: "/api/account/avatar",
    summary:
      "Set the profile photo (multipart, one file field `image`, at most 10 MB): stored square (256×256, cropped on its most interesting part), without metadata, at a public URL. Answers the account with its new `profileImageUrl`.",
    procedure: uploadAvatar,
    auth: "bearer-or-cookie",
    input: "multipart",
    status: 200,
    errors: [415],
  },
  {
    method: "POST",
    path: "/api/account/email",
    summary:
      "Ask to change the email, with the current password (400 when wrong; a wrong one counts toward the sign-in limits, 429 past them; 429 past 5 requests an hour from one account): 202, a single-use link valid for 24 hours goes to the new address and a notice to the old one. An address another account has gets the same answer, and a notice that someone tried instead of the link. The email changes only when the link is used.",
    procedure: requestEmailChange,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [429],
  },
  {
    method: "POST",
    path: "/api/account/email/confirm",
    summary:
      "Use an email change link's `token` (the signed-in owner's, unused, within 24 hours; 400 otherwise): the email changes and the account is answered. Sessions and tokens keep working.",
    procedure: confirmEmailChange,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [409],
  },

  // Studio: originals and styles
  responding({
    method: "POST",
    path: "/api/token-images/upload",
    summary:
      "Upload an original image (multipart, file field `image`, at most 10 MB a file). One file answers the image. Up to 10 files (the field repeated) are each checked and stored on their own, in order: the answer is `{images, refused}`, the images stored and, for each file not stored, `{index, filename, status, message}` (not an image: 415; past today's uploads or the storage room: 429). When every file is refused the first refusal is the answer; 400 for an 11th file (nothing stored).",
    procedure: uploadImage,
    auth: "bearer-or-cookie",
    input: "multipart",
    status: 201,
    errors: [415, 429, 507],
    respond: (outcome) =>
      outcome.files === 1
        ? jsonResponse(outcome.images[0], { status: 201 })
        : jsonResponse({ images: outcome.images, refused: outcome.refused }, { status: 201 }),
  }),
  {
    method: "GET",
    path: "/api/token-images",
    summary: "The caller's originals, newest first, each with its stylized versions.",
    procedure: listImages,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/token-images/{id}",
    summary: "One original with its stylized versions.",
    procedure: getImage,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    errors: [404],
  },
  {
    method: "DELETE",
    path: "/api/token-images/{id}",
    summary: "Delete an original, its stylized versions and their files.",
    procedure: deleteImage,
    auth: "bearer-or-cookie",
    input: "none",
    status: 204,
    errors: [404],
  },
  responding({
    method: "POST",
    path: "/api/token-images/{id}/stylize",
    summary:
      "Ask for a style; answers `{id, status}` at once while a job does the work. 409 without the caller's consent to face processing (POST /api/account/consent).",
    procedure: stylizeImage,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [404, 409, 429, 507],
    respond: (stylized) =>
      jsonResponse({ id: stylized.id, status: stylized.status }, { status: 202 }),
  }),
  {
    method: "POST",
    path: "/api/token-images/{id}/stylize-all",
    summary:
      "Ask for all four styles of an original at once; answers the four new stylized images (each `pending`, with its `seed`) while jobs do the work. All or nothing: 429 when the four would pass the styles in progress or today's styles, and none is asked for.",
    procedure: stylizeAllStyles,
    auth: "bearer-or-cookie",
    input: "none",
    status: 202,
    errors: [404, 409, 429, 507],
  },
  {
    method: "POST",
    path: "/api/token-stylized-images/{id}/reroll",
    summary:
      "Re-roll a style: the same original and style again with a new seed, as a new stylized image (answered `pending`, with its `seed`); the earlier one stays until deleted. 404 when the original is no longer held.",
    procedure: rerollStyle,
    auth: "bearer-or-cookie",
    input: "none",
    status: 202,
    errors: [404, 409, 429, 507],
  },
  {
    method: "GET",
    path: "/api/token-stylized-images",
    summary: "The caller's stylized images, newest first.",
    procedure: listStylizedImages,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/token-stylized-images/{id}",
    summary: "One stylized image (polled while it is being styled).",
    procedure: getStylizedImage,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    errors: [404],
  },
  {
    method: "DELETE",
    path: "/api/token-stylized-images/{id}",
    summary: "Delete a stylized image and its files.",
    procedure: deleteStylizedImage,
    auth: "bearer-or-cookie",
    input: "none",
    status: 204,
    errors: [404],
  },
  {
    method: "POST",
    path: "/api/images/optimize",
    summary: "Make a delivery version of a completed stylized image; answers the stylized image.",
    procedure: optimizeImage,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [404, 429, 507],
  },
  {
    method: "GET",
    path: "/api/token-stats",
    summary: "The signed-in creator's studio and sales numbers.",
    procedure: creatorStats,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/token-earnings",
    summary: "The signed-in creator's share of each sale.",
    procedure: creatorEarnings,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/token-analytics",
    summary:
      "The signed-in creator's views, add-to-carts, sales, conversion and earnings (dollars, the creator's share less refunds) per UTC day of the last 7, 30 or 90 days (`days`, 30 when left out; another range is a 400), and per listing. Views and add-to-carts count once per visitor and day.",
    procedure: creatorAnalytics,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/token-payouts",
    summary:
      "The signed-in creator's payout account (provider, state), balance (earned, owed, transferred, held, reversed, in dollars) and transfers.",
    procedure: creatorPayouts,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "POST",
    path: "/api/payouts/onboard",
    summary:
      "Set up payouts: the creator's payout account (made at the provider the first time, in `country`: the creator's two-letter country code, required then) and a one-time link to its onboarding (Stripe's hosted pages, or the in-app test onboarding page when Stripe is not configured). A country the platform cannot pay is a 400 whose message says so; nothing is created. When Stripe itself refuses the account or the link, a 422 whose message is Stripe's own reason; 502 when it cannot be reached.",
    procedure: startPayoutOnboarding,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [400, 422, 502],
  },

  // Marketplace and checkout
  {
    method: "GET",
    path: "/api/marketplace",
    summary:
      "Browse the public marketplace (filter by style or text, page with cursor and limit). A text search walks at most 500 matches, the newest listed first, and is limited per client address (429 with Retry-After).",
    procedure: browseMarketplace,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    errors: [429],
  },
  {
    method: "GET",
    path: "/api/marketplace-listings",
    summary: "The signed-in creator's listings with their per-platform state.",
    procedure: myListings,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/token-marketplace-listings",
    summary: "The same as GET /api/marketplace-listings, for token clients.",
    procedure: myListings,
    operationId: "tokenMyListings",
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "POST",
    path: "/api/create-checkout-session",
    summary: "Start a checkout for listed images; prices come from the database.",
    procedure: checkout,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [429, 502],
  },
  {
    method: "POST",
    path: "/api/library-link",
    summary:
      "Ask for a link to the buyer's library by email; always 202 with the same answer, and an email with paid orders is mailed a link to /library valid for 24 hours.",
    procedure: requestLibraryLink,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [429],
  },
  {
    method: "GET",
    path: "/api/payment-status/{sessionId}",
    summary: "An order's payment state; its downloads once paid.",
    procedure: paymentStatus,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    errors: [404, 429],
  },
  {
    method: "POST",
    path: "/api/webhooks/stripe",
    summary: "Stripe's signed events; the raw body goes to the signature check untouched.",
    procedure: receiveStripeWebhook,
    auth: "none",
    input: "signed-json",
    status: 200,
    errors: [400, 404],
    rawBody: { maxBytes: 512 * 1024, as: "text", headers: { signature: "Stripe-Signature" } },
  },
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

  // Publishing
  responding({
    method: "GET",
    path: "/api/marketplace-integrations",
    summary: "The caller's connected platforms by display name, the own marketplace first.",
    procedure: creatorIntegrations,
    operationId: "creatorIntegrationNames",
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    respond: (list) => jsonResponse(withPlatformNames(list)),
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
    handle: oauthCallback,
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
    handle: shopifyInstall,
  },
  {
    method: "POST",
    path: "/api/marketplace/launch",
    summary: "Publish a stylized image to each chosen platform; answers what happened on each.",
    procedure: launchMarketing,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [404, 429],
  },
  {
    method: "POST",
    path: "/api/marketplace/post",
    summary: "Post a stylized image to each chosen platform; answers a result per platform.",
    procedure: postToMarketplaces,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [404, 429],
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
  responding({
    method: "GET",
    path: "/api/publications/{id}/download",
    summary: "The owner's mint kit or export package (a zip), through a signed, expiring link.",
    procedure: publicationDownload,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    answer: "zip",
    errors: [404],
    respond: fileDownload("application/zip"),
  }),
  responding({
    method: "GET",
    path: "/api/token-stylized-images/{id}/model-release",
    summary: "The model release of a stylized image (a PDF), for its owner only.",
    procedure: modelReleaseDownload,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    answer: "pdf",
    errors: [404],
    respond: fileDownload("application/pdf"),
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

  // Admin
  {
    method: "GET",
    path: "/api/admin/stats",
    summary: "Platform numbers (super admin only).",
    procedure: adminStats,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/admin/users",
    summary: "Every user, or those matching `q` (super admin only).",
    procedure: adminUsers,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "POST",
    path: "/api/admin/users",
    summary: "Create a user (super admin only).",
    procedure: adminCreateUser,
    auth: "bearer-or-cookie",
    input: "json",
    status: 201,
    errors: [409, 503],
  },
  {
    method: "GET",
    path: "/api/admin/users/{userId}",
    summary: "One user (super admin only).",
    procedure: adminUser,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    errors: [404],
  },
  // Account erasure
  {
    method: "DELETE",
    path: "/api/account",
    summary:
      "Erase the caller's account, with their password. At once every session and token of the user answers 401 and their listings leave the marketplace; then their files that no buyer paid for are deleted and their personal data removed. Buyers' downloads and licenses of what they bought keep working; the email can register again. 400 for a wrong password (nothing changes); a wrong password counts toward the sign-in limits of the account's email, and past them the answer is 429 with Retry-After.",
    procedure: eraseMyAccount,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [429],
  },
  {
    method: "DELETE",
    path: "/api/admin/users/{userId}",
    summary:
      "Erase a user's account, as DELETE /api/account does (super admin only; 400 for the super admin's own account).",
    procedure: eraseUser,
    auth: "bearer-or-cookie",
    input: "none",
    status: 202,
    errors: [404],
  },
  {
    method: "POST",
    path: "/api/admin/users/{userId}/{action}",
    summary:
      "Ban or unban a user; a ban ends their sessions and tokens (super admin only). 409 for an erased account.",
    procedure: changeUserStatus,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
    errors: [404, 409],
  },
  {
    method: "GET",
    path: "/api/admin/images",
    summary: "Every uploaded original with its owner (super admin only).",
    procedure: adminImages,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/admin/orders",
    summary:
      "Orders, newest first, with their items; `q` matches a buyer email in part, or an order id or an item's sale reference (what its creator is shown) exactly, `status` narrows to one status (super admin only).",
    procedure: adminOrders,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "POST",
    path: "/api/admin/orders/{orderId}/refund",
    summary:
      "Refund the rest of a paid order: the buyer's money goes back, its downloads end, its license is revoked and the creators' shares are reversed; answers the order (super admin only).",
    procedure: refundOrder,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [404, 409, 502],
  },
  {
    method: "GET",
    path: "/api/admin/payouts",
    summary:
      "Every creator's payout account state and balance: earned, owed, transferred, held and reversed (super admin only).",
    procedure: adminPayouts,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "GET",
    path: "/api/admin/audit",
    summary:
      "The audit log, newest first (super admin only): bans, unbans, created users, erasures, refunds, job retries and cancels, waitlist invitations, and users' own password and email changes and ended sessions, each with who, what, to whom and when; `nextCursor` pages to older entries.",
    procedure: adminAuditLog,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },

  {
    method: "GET",
    path: "/api/admin/jobs",
    summary:
      "The background jobs to look at, newest first (super admin only): failed ones and stuck ones (running past their lease, or queued for more than 15 minutes), each with its kind, attempts, last error and the request id that queued it.",
    procedure: adminJobs,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "POST",
    path: "/api/admin/jobs/{jobId}/retry",
    summary:
      "Queue a failed job again, due now, with fresh attempts (super admin only); 409 for a job that is not failed.",
    procedure: adminRetryJob,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
    errors: [404, 409],
  },
  {
    method: "POST",
    path: "/api/admin/jobs/{jobId}/cancel",
    summary:
      'Call off a queued or failed job: it ends failed, "Cancelled by the admin", and is never run (super admin only); 409 for a job a worker is running or one that finished.',
    procedure: adminCancelJob,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
    errors: [404, 409],
  },

  // The account: the export of the creator's own data
  {
    method: "POST",
    path: "/api/account/export",
    summary:
      "Ask for a zip of your own data (account.json, every image file of yours byte for byte, listings.json, sales.json, payouts.json); answers the export `{id, status, url, expiresAt}` at once while a job builds it, and mails you its link when ready. While one is pending, asking again answers the same export; one export an hour (429 with Retry-After).",
    procedure: requestAccountExport,
    auth: "bearer-or-cookie",
    input: "none",
    status: 202,
    errors: [429],
  },
  {
    method: "GET",
    path: "/api/account/export/{id}",
    summary:
      "One of your exports: `status` pending, ready or failed; when ready, `url` downloads the zip until `expiresAt` (24 hours), then it is deleted and `url` is null. 404 for an id that is not yours.",
    procedure: accountExport,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    errors: [404],
  },
  // Consent to face processing
  {
    method: "POST",
    path: "/api/account/consent",
    summary:
      "Agree to face processing (`{faceProcessing: true}`): records the time and the version of the text shown; answers the account.",
    procedure: giveFaceConsent,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
  },
  {
    method: "DELETE",
    path: "/api/account/consent",
    summary:
      "Withdraw the consent to face processing: new styling stops and the caller's waiting styles are cancelled; answers the account.",
    procedure: withdrawFaceConsentProcedure,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
  },

  // This document
  {
    method: "GET",
    path: "/api/openapi.json",
    summary: "This API's OpenAPI document.",
    operationId: "openApiDocument",
    access: "public",
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
    handle: serveOpenApiDocument,
  },
];
