import type { Database } from "./schema";

/**
 * Who owns each table: the one feature (a folder under app/features) whose
 * modules write it, or "infra" for the floor's own tables (the job queue, the
 * built-in test payout provider's books). Every other part of the app asks the
 * owner: a feature calls what the owner hands out (app/features/<owner>/public.server.ts),
 * and reads another feature's table only where the allow-list of
 * tests/architecture/table-owners.test.ts says why. That test enforces this map.
 *
 * The names are plain strings: db/ imports nothing from app/ (a test checks
 * each owner names a feature folder).
 */
export type TableOwner =
  | "accounts"
  | "admin"
  | "audit"
  | "market"
  | "payouts"
  | "privacy"
  | "publishing"
  | "reports"
  | "studio"
  | "infra";
export type TableName = keyof Database;

export const TABLE_OWNERS: Record<TableName, TableOwner> = {
  // Accounts: who people are, how they sign in, their exports and the waitlist.
  users: "accounts",
  sessions: "accounts",
  api_tokens: "accounts",
  email_changes: "accounts",
  registration_links: "accounts",
  /** The sign-in throttle's failures (login-throttle.server.ts), not the floor's generic rate limiter (which keeps no rows). */
  auth_failures: "accounts",
  login_attempts: "accounts",
  account_exports: "accounts",
  waitlist: "accounts",
  /** A creator's verified face (a face descriptor), kept with the account like the consent it needs. */
  verified_faces: "accounts",
  // Audit: what admins, users and Stripe did to accounts and money.
  audit_log: "audit",
  // Studio: uploads, styles and the daily quotas that count them.
  usage_events: "studio",
  images: "studio",
  stylized_images: "studio",
  // Market: listings, orders and what buyers get (refund requests included), the listings' counters and search index, Stripe's delivered events.
  listings: "market",
  orders: "market",
  order_items: "market",
  download_grants: "market",
  webhook_events: "market",
  listing_views: "market",
  listing_days: "market",
  listing_cart_adds: "market",
  listing_saves: "market",
  listing_search_entries: "market",
  listing_search: "market",
  undone_refunds: "market",
  ratings: "market",
  shopify_sales: "market",
  refund_requests: "market",
  follows: "market",
  bundles: "market",
  bundle_items: "market",
  discount_codes: "market",
  // Payouts: the ledger of creators' shares and their payout accounts.
  earnings: "payouts",
  payout_accounts: "payouts",
  // Reports: reports of listings and storefronts, and their decisions.
  reports: "reports",
  // Publishing: connections to other platforms, publications and model releases.
  integrations: "publishing",
  oauth_states: "publishing",
  shopify_installs: "publishing",
  listing_platforms: "publishing",
  shopify_webhook_receipts: "publishing",
  model_releases: "publishing",
  // Privacy: the log of consents given and withdrawn.
  consent_log: "privacy",
  // The floor: the job queue, the periodic tasks' leases, the shared rate-limit counts and the built-in test payout provider (app/infra/payouts/test-payouts.server.ts).
  jobs: "infra",
  periodic_leases: "infra",
  file_intents: "infra",
  rate_limit_hits: "infra",
  test_payout_accounts: "infra",
  test_payout_movements: "infra",
};
