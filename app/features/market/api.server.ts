import type { ApiRoute } from "~/infra/api-entry.server";
import { adminOrders, refundOrder } from "~/features/market/orders/admin.procedures.server";
import { checkout } from "~/features/market/checkout/procedures.server";
import { paymentStatus } from "~/features/market/checkout/payment-status.procedures.server";
import { receiveStripeWebhook } from "~/features/market/webhooks/procedures.server";
import { browseMarketplace } from "~/features/market/catalog/procedures.server";
import { myListings } from "~/features/market/catalog/creator-listings.procedures.server";
import { requestLibraryLink } from "~/features/market/library/procedures.server";
import { creatorAnalytics } from "~/features/market/analytics/procedures.server";

/**
 * The /api endpoints of market: the creator's analytics and listings, the marketplace, checkout,
 * the library link, the payment status, Stripe's webhook, and the admin's orders and refunds. The
 * table (app/routes/api+/api-route-table.server.ts) puts every feature's entries together, in a
 * fixed order of features; the router answers from it and the OpenAPI document describes it.
 */
export const MARKET_API: readonly ApiRoute[] = [
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
];
