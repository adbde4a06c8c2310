import { downloading, type ApiRoute } from "~/infra/api-entry.server";
import {
  adminOrders,
  adminTaxCsv,
  refundOrder,
} from "~/features/market/orders/admin.procedures.server";
import { checkout } from "~/features/market/checkout/procedures.server";
import { paymentStatus } from "~/features/market/checkout/payment-status.procedures.server";
import { receiveStripeWebhook } from "~/features/market/webhooks/procedures.server";
import { browseMarketplace } from "~/features/market/catalog/procedures.server";
import { myListings } from "~/features/market/catalog/creator-listings.procedures.server";
import { requestLibraryLink } from "~/features/market/library/procedures.server";
import { creatorAnalytics, mySalesCsv } from "~/features/market/analytics/procedures.server";
import {
  adminRefundRequests,
  approveRefundRequest,
  declineRefundRequest,
  requestRefund,
} from "~/features/market/orders/refund-requests.procedures.server";
import { checkProvenance } from "~/features/market/provenance/procedures.server";
import { PROVENANCE_FIELD } from "~/lib/content-credentials";
import { followCreator } from "~/features/market/follows/procedures.server";
import { createMyBundle, withdrawMyBundle } from "~/features/market/bundles/procedures.server";
import {
  createMyDiscount,
  deleteMyDiscount,
  myDiscounts,
} from "~/features/market/discounts/procedures.server";

const NULLABLE_TEXT = { type: ["string", "null"] };

/** What POST /api/provenance/check answers of a file. */
const PROVENANCE_ANSWER_SCHEMA = {
  oneOf: [
    {
      type: "object",
      description: "The file carries no C2PA manifest (a re-encoded copy loses it).",
      properties: { manifest: { const: false } },
      required: ["manifest"],
    },
    {
      type: "object",
      properties: {
        manifest: { const: true },
        valid: {
          type: "boolean",
          description:
            "Unchanged since it was signed, by a well-formed certificate. Whether anyone vouches for the signer is another matter: this server's own self-made certificate is trusted by no one.",
        },
        signer: {
          ...NULLABLE_TEXT,
          description: "The signing certificate's organization, else its common name.",
        },
        digitalSourceType: {
          ...NULLABLE_TEXT,
          description:
            "How the file was made: the IPTC digital source type URI its manifest's first action states (`.../trainedAlgorithmicMedia`, `.../composite`).",
        },
        claimGenerator: { ...NULLABLE_TEXT, description: "The software that wrote the manifest." },
        createdAt: {
          ...NULLABLE_TEXT,
          format: "date-time",
          description:
            "When the file was made (its first action's time, else the signature's timestamp).",
        },
      },
      required: ["manifest", "valid", "signer", "digitalSourceType", "claimGenerator", "createdAt"],
    },
  ],
};

/**
 * The /api endpoints of market: the creator's analytics, listings and bundles, the marketplace, checkout,
 * the library link, the Content Credentials check, the payment status, follows, refund requests, Stripe's
 * webhook, and the admin's orders, refunds and refund requests. The
 * table (app/routes/api+/api-route-table.server.ts) puts every feature's entries together, in a
 * fixed order of features; the router answers from it and the OpenAPI document describes it.
 */
export const MARKET_API: readonly ApiRoute[] = [
  {
    method: "GET",
    path: "/api/token-analytics",
    summary:
      "The signed-in creator's views, add-to-carts, saves, sales, conversion and earnings (dollars, the creator's share less refunds) per UTC day of the last 7, 30 or 90 days (`days`, 30 when left out; another range is a 400), and per listing; the confirmed followers (`followers`: `confirmed`, and `newInRange`, counts only); the bundles sold in the range (`bundles`: each with its `sales` and `earnings`); and the discount codes used in the range (`discountCodes`: each `code` with its paid `orders`, the `discount` it took off, the `revenue` paid after it less refunds, and the creator's `earnings` from it). Views, add-to-carts and saves count once per visitor and day.",
    procedure: creatorAnalytics,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  downloading({
    method: "GET",
    path: "/api/token-analytics/sales.csv",
    summary:
      "The signed-in creator's own sales as a CSV file (attachment `selfie-studio-sales-YYYY-MM-DD.csv`), one row per UTC month of payment, listing and licence, for orders paid, refunded or disputed: `month` (YYYY-MM), `listing_id`, `title`, `licence` (standard, extended or exclusive), `test` (yes for a sale in the built-in test checkout, where no money moved), `items_sold`, `gross` (the items' prices), `discount` (what discount codes took off the items), `refunded` (what refunds took back, against the month of the sale), `creator_share` and `platform_fee` (less their parts of refunds) and `currency`. Text is quoted; a text cell starting with =, +, - or @ starts with an apostrophe so spreadsheets never run it. Nothing of the buyers.",
    procedure: mySalesCsv,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
    answer: "csv",
  }),
  {
    method: "GET",
    path: "/api/marketplace",
    summary:
      "Browse the public marketplace (filter by style or text, page with cursor and limit). Each item has `licenses: [{type, price}]`: standard always, extended and exclusive when its creator priced them. A text search walks at most 500 matches, the newest listed first, and is limited per client address (429 with Retry-After).",
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
    path: "/api/token-bundles",
    summary:
      "Make a bundle of 2 to 10 of the caller's own live listings (`listingIds`, in order) with a `title` and a `price` in dollars, as a listing's price is given, below the sum of the listings' prices: 201 `{id, url}`, the bundle's public page. It is bought whole, each listing delivered with its license; withdrawing any of its listings withdraws it. 400 for a price not below the sum, fewer than 2 or more than 10 ids, or an id twice; 404 for an id that is not one of the caller's live listings.",
    procedure: createMyBundle,
    auth: "bearer-or-cookie",
    input: "json",
    status: 201,
    errors: [404],
  },
  {
    method: "DELETE",
    path: "/api/token-bundles/{id}",
    summary:
      "Withdraw one of the caller's bundles: it can no longer be bought and its page says so (its listings stay for sale). 404 for an id that is not one of the caller's bundles.",
    procedure: withdrawMyBundle,
    auth: "bearer-or-cookie",
    input: "none",
    status: 204,
    errors: [404],
  },
  {
    method: "POST",
    path: "/api/token-discounts",
    summary:
      "Make a discount code of the caller's: `code` (3–32 letters, digits, - or _; kept in upper case), `percentOff` (1–100) or `amountOff` (dollars, as a price is given, off the order's items it applies to), and optionally `listingIds` (only those of the caller's live listings; none: all of them), `startsAt` and `endsAt` (ISO 8601, or a date alone: the start or the end of that day in UTC) and `maxRedemptions` (paid orders that may use it). A code takes money off only the caller's own images in a buyer's cart. 201 with the code; 409 for a code the caller already has; 404 for a listing that is not one of the caller's live ones; 400 for both or neither of percentOff and amountOff, an end before the start, or an amount off above the price of a listing it names.",
    procedure: createMyDiscount,
    auth: "bearer-or-cookie",
    input: "json",
    status: 201,
    errors: [404, 409],
  },
  {
    method: "GET",
    path: "/api/token-discounts",
    summary:
      "The caller's discount codes not deleted, newest first: `[{id, code, percentOff, amountOff, listingIds, startsAt, endsAt, maxRedemptions, redemptions}]`, `redemptions` counting paid orders that used the code.",
    procedure: myDiscounts,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
  },
  {
    method: "DELETE",
    path: "/api/token-discounts/{id}",
    summary:
      "Delete one of the caller's discount codes: buyers can no longer use it; orders that used it keep their prices. 404 for an id that is not one of the caller's codes.",
    procedure: deleteMyDiscount,
    auth: "bearer-or-cookie",
    input: "none",
    status: 204,
    errors: [404],
  },
  {
    method: "POST",
    path: "/api/create-checkout-session",
    summary:
      "Start a checkout for listed images (`cartItems: [{imageId, licenseType}]`, licenseType `standard` (the default), `extended` or `exclusive`) and bundles (`[{bundleId}]`, Standard only); prices come from the database, the listing's price for the tier. 400 for a tier the listing does not offer (nothing is created). `discountCode` (optional) takes a creator's code off their items in the cart (the line amounts are the discounted prices); 400 `{message}` saying why when it takes nothing off (unknown, another creator's, not for these images, not started, expired, used up, more than the price), and nothing is created.",
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
    method: "POST",
    path: "/api/provenance/check",
    summary:
      "Check a file's Content Credentials (public; multipart, one file in the field `file`, at most 10 MB): whether it carries a C2PA manifest, whether that validates, who signed it, how the file was made and when. The file is kept nowhere. 400 for a file that is not a JPEG, PNG or WebP image; 422 for one damaged or cut short, or whose manifest is past the check's limits (its size, nesting or time); 503 while other files are being checked.",
    procedure: checkProvenance,
    auth: "bearer-or-cookie",
    input: "multipart",
    uploadField: {
      name: PROVENANCE_FIELD,
      contentType: "image/jpeg, image/png, image/webp, application/octet-stream",
      description: "The file to check: any bytes, at most 10 MB (JPEG, PNG and WebP are read).",
    },
    status: 200,
    answerSchema: PROVENANCE_ANSWER_SCHEMA,
    errors: [400, 422, 503],
  },
  {
    method: "GET",
    path: "/api/payment-status/{sessionId}",
    summary:
      "An order's payment state; its downloads once paid. Its amounts, in the currency's units: `subtotal` (the items' prices), `discount` (0 for now), `tax` (VAT or sales tax, 0 when none; with TAX=on, Stripe Tax's, or the built-in test checkout's EU and UK VAT), `total` (subtotal - discount + tax, what was paid), `currency`, and `country` (the buyer's, ISO 3166-1 alpha-2, or null), with `taxRate` (the test checkout's VAT rate in percent, else null) and `reverseCharge` (true when a business's VAT number moved the VAT to the buyer).",
    procedure: paymentStatus,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
    errors: [404, 429],
  },
  {
    method: "POST",
    path: "/api/follows",
    summary:
      "Follow a creator by `handle` with an `email`, no account needed: 202, and a confirmation link is mailed. Once confirmed, the address gets at most one digest mail a day with the creator's new listings. Every mail of a follow, the confirmation too, has `List-Unsubscribe` and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`; a POST to that address (no body needed) ends the follow at once and deletes the address. The same address following the same creator again is the same follow. 404 for an unknown storefront; 429 with Retry-After past the limits (nothing stored).",
    procedure: followCreator,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [404, 429],
  },
  {
    method: "POST",
    path: "/api/refund-requests",
    summary:
      'The buyer asks for a refund of the paid order of their own checkout session (`sessionId`, the key; no account needed), with a `reason`, within REFUND_WINDOW_DAYS (14 by default) of its payment: 202 `{id, status: "requested"}`, and its creators and the admin are told. The admin approves (the order is refunded) or declines with a reason mailed to the buyer. 404 for an unknown session; 409 with the reason after the window, for an order asked about already, refunded, disputed or not paid (nothing changed).',
    procedure: requestRefund,
    auth: "bearer-or-cookie",
    input: "json",
    status: 202,
    errors: [404, 409],
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
  downloading({
    method: "GET",
    path: "/api/admin/tax.csv",
    summary:
      "Sales and the tax collected, for the operator's VAT and sales tax returns, as a CSV file (attachment `selfie-studio-tax-YYYY-MM-DD.csv`), one row per UTC month of payment, buyer's country and currency, for orders paid, refunded or disputed: `month` (YYYY-MM), `country` (ISO 3166-1 alpha-2, empty when the buyer gave none), `currency`, `test` (yes for the built-in test checkout, where no money moved), `orders`, `sales` (before tax, less discounts), `reverse_charge_sales` (the part sold to businesses under the reverse charge, no VAT), `tax`, `total` (what the buyers paid), `refunded_sales` and `refunded_tax` (what refunds gave back, against the month of the sale). Sales made in creators' Shopify stores are not in it (taxed there). Super admin only.",
    procedure: adminTaxCsv,
    auth: "bearer-or-cookie",
    input: "none",
    status: 200,
    answer: "csv",
  }),
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
    path: "/api/admin/refund-requests",
    summary:
      "Buyers' refund requests: those waiting for a decision, the oldest first, then the decided ones, the newest first; `status` (requested, refunded or declined) narrows to one state (super admin only).",
    procedure: adminRefundRequests,
    auth: "bearer-or-cookie",
    input: "query",
    status: 200,
  },
  {
    method: "POST",
    path: "/api/admin/refund-requests/{id}/approve",
    summary:
      "Approve a waiting refund request: the order is refunded as POST /api/admin/orders/{orderId}/refund refunds it and the creators are told why; answers the request, now `refunded` (super admin only). 409 for a request decided already or an order that is no longer paid, 502 when the payment provider refuses (nothing changed).",
    procedure: approveRefundRequest,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [404, 409, 502],
  },
  {
    method: "POST",
    path: "/api/admin/refund-requests/{id}/decline",
    summary:
      "Decline a waiting refund request with a `reason`, which is mailed to the buyer; the order is left as it is. Answers the request, now `declined` (super admin only); 409 for a request decided already.",
    procedure: declineRefundRequest,
    auth: "bearer-or-cookie",
    input: "json",
    status: 200,
    errors: [404, 409],
  },
];
