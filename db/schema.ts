import type { Generated, Insertable, Selectable, Updateable } from "kysely";

/** The typed database schema, kept in step with db/migrations (a test checks). Each table's owner is in db/table-owners.ts. */

export interface UsersTable {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  profile_image_url: string | null;
  banned: Generated<number>;
  created_at: string;
  updated_at: string;
  /** The public handle: unique, lower-case a-z, 0-9 and '-', 3-30 characters (migration 0019). */
  handle: string | null;
  bio: string | null;
  /** The version of the face-processing text the user agreed to, and when; both null when never given or withdrawn. */
  face_consent_version: string | null;
  face_consent_at: string | null;
  /** When the account was erased (migration 0024): the row is then a tombstone without the person's email, names or secrets. */
  erased_at: Generated<string | null>;
}

/** An email change waiting for the link mailed to the new address (only the token's hash is kept), or used (kept until the account's erasure). */
export interface EmailChangesTable {
  id: string;
  user_id: string;
  new_email: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The address the change replaced, once used (migration 0041): an erasure forgets mail to every address the account had. */
  previous_email: Generated<string | null>;
}

/** A registration link still waiting (the registration itself is sealed in the link). */
export interface RegistrationLinksTable {
  /** sha256 of the link's random nonce. */
  nonce_hash: string;
  /** HMAC of the lower-cased address (registration-links.server.ts). */
  email_hash: string;
  created_at: string;
  expires_at: string;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  /** When the session was last used, written at most every few minutes; a session idle for SESSION_IDLE_DAYS ends. */
  last_seen_at: string;
  /** The browser the session was made from (its User-Agent, cut short), for the sessions list. */
  user_agent: string | null;
  /** The id the session goes by in the sessions list and when revoked (random; never id_hash). Migration 0021. */
  public_id: string;
}

export interface ApiTokensTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  /** The client the token was made from (its User-Agent, cut short), for the sessions list. */
  user_agent: string | null;
  /** The id the token goes by in the sessions list and when revoked (random; never token_hash). Migration 0021. */
  public_id: string;
}

export interface AuthFailuresTable {
  id: Generated<number>;
  bucket: string;
  created_at: string;
}

/** A sign-in attempt whose password is being checked (migration 0006). */
export interface LoginAttemptsTable {
  id: string;
  email_hash: string;
  address_hash: string;
  /** 1 when the address had no failure for this email in the window when the attempt began. */
  newcomer: number;
  created_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: string;
  action: string;
  subject_id: string | null;
  detail: string | null;
  created_at: string;
}

export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  status: Generated<"queued" | "running" | "done" | "failed">;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: string;
  locked_until: string | null;
  /** The lease token of the worker that holds the job (migration 0004). */
  locked_by: string | null;
  /** The creator the job works for; null for jobs of nobody (migration 0007). */
  user_id: string | null;
  /** When a worker last took the job (migration 0007). */
  claimed_at: string | null;
  /** The id of the request (or job) that queued it, for the worker's log lines (migration 0034). */
  request_id: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** One row per upload and per style asked for: the daily quotas count these (migration 0007). */
export interface UsageEventsTable {
  id: Generated<number>;
  user_id: string;
  kind: "upload" | "stylize";
  created_at: string;
}

export interface ImagesTable {
  id: string;
  user_id: string;
  file_key: string;
  width: number;
  height: number;
  bytes: number;
  mime_type: string;
  created_at: string;
  /** When ORIGINALS_RETENTION_DAYS removed the original's file (its styles stay); null while it is kept. */
  original_removed_at: string | null;
  /** How it compares with the creator's verified face (migration 0050); null: not compared. */
  likeness: ImageLikeness | null;
}

/** An upload compared with its creator's verified face: the same person, someone else, or no face in it. */
export type ImageLikeness = "self" | "other" | "none";

/**
 * A creator's verified face (migration 0050): the face descriptor of their
 * selfie (biometric data; the photo is not kept), and the other account with
 * the same face when there was one at verification (flagged to the admin).
 */
export interface VerifiedFacesTable {
  user_id: string;
  /** 1024 little-endian 32-bit floats, base64. */
  descriptor: string;
  verified_at: string;
  same_face_user_id: string | null;
}

export type StylizedStatus = "pending" | "processing" | "completed" | "failed";

export interface StylizedImagesTable {
  id: string;
  image_id: string;
  user_id: string;
  style: string;
  status: Generated<StylizedStatus>;
  /** The engine that makes it: "local" or "fal". */
  provider: string;
  file_key: string | null;
  width: number | null;
  height: number | null;
  bytes: number | null;
  error: string | null;
  attempts: Generated<number>;
  /** Null means the default price (25 dollars). */
  price_cents: number | null;
  licensing_enabled: Generated<number>;
  nft_enabled: Generated<number>;
  optimized_file_key: string | null;
  optimized_format: string | null;
  optimized_quality: number | null;
  optimized_resolution: string | null;
  optimized_width: number | null;
  optimized_height: number | null;
  optimized_bytes: number | null;
  watermark: number | null;
  social_optimized: number | null;
  /** How the styled image was enlarged to keep the upload's detail: null (not enlarged), "lanczos3" or a fal upscaler's id. */
  upscaled_by: string | null;
  /** How the optimized version was enlarged to its resolution preset: null (not enlarged) or "lanczos3". */
  optimized_upscaled_by: string | null;
  /** The pixels the style engine really made, before any enlargement (migration 0026); null on older styles. */
  native_width: number | null;
  native_height: number | null;
  /** The seed the engine was asked to make it with (0 to 2^31 - 1; migration 0036); null on older styles. */
  seed: number | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export type ListingStatus = "active" | "withdrawn";

export interface ListingsTable {
  id: string;
  /** The creator. */
  user_id: string;
  /** Null once the creator deleted the stylized image (the listing is then withdrawn). */
  stylized_image_id: string | null;
  style: string;
  title: string;
  description: Generated<string>;
  price_cents: number;
  /** JSON array of strings. */
  tags: Generated<string>;
  licensing_enabled: Generated<number>;
  nft_enabled: Generated<number>;
  /** Snapshot of the clean file sold to buyers (under listings/). */
  file_key: string;
  file_mime_type: string;
  /** The stylized image's file the snapshot was copied from. */
  source_file_key: string;
  width: number;
  height: number;
  /** Public, downscaled and watermarked preview (under previews/). */
  preview_key: string;
  view_count: Generated<number>;
  status: Generated<ListingStatus>;
  created_at: string;
  updated_at: string;
  /** Set while a report keeps the listing hidden from every public page and API, pending its decision (migration 0051). */
  hidden_at: string | null;
  /** The code of the IPTC Digital Source Type the listed file states: "composite" (the built-in engine) or "trainedAlgorithmicMedia" (a generative one). */
  source_type: Generated<string>;
  /**
   * How the sold file was enlarged to its sale size (migration 0057): null, "lanczos3",
   * "fal-ai/esrgan", or both joined with "+" in the order they ran (at styling, then listing).
   */
  upscaled_by: string | null;
  /** The pixels the engine really made before that enlargement (null when unknown or not enlarged). */
  native_width: number | null;
  native_height: number | null;
  /** The Extended licence's price (migration 0062, decision 101), at least price_cents; null when not offered. */
  extended_price_cents: number | null;
  /** The Exclusive licence's price, at least price_cents; null when not offered. */
  exclusive_price_cents: number | null;
  /** When an Exclusive licence of it was paid: withdrawn for good, its stylized image never listed again. */
  exclusive_sold_at: string | null;
}

export type OrderStatus = "pending" | "paid" | "refunded" | "disputed" | "failed" | "expired";
/** `shopify`: a sale made in a creator's own Shopify store and delivered by us (migration 0043); no payment of ours. */
export type PaymentProviderId = "stripe" | "test" | "shopify";

export interface OrdersTable {
  id: string;
  /** SHA-256 (hex) of the Stripe Checkout Session id or the test checkout's session id: the payment-status API answers downloads for the id, so it is never stored (migration 0015). */
  checkout_session_hash: string | null;
  /** The license page's key (/licenses/{licenseId}): 128 random bits, given only to the buyer (migration 0015). */
  license_id: string;
  provider: PaymentProviderId;
  status: Generated<OrderStatus>;
  customer_name: string;
  customer_email: string;
  customer_company: string | null;
  total_cents: number;
  currency: Generated<string>;
  /** Why the payment failed or the order was refused, in words a buyer can read. */
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  /** Stripe's PaymentIntent of the paid session (migration 0009). */
  payment_intent_id: Generated<string | null>;
  /** The charge that paid: a transfer's source_transaction (migration 0009). */
  charge_id: Generated<string | null>;
  /** How much of total_cents was refunded, by us or in Stripe's dashboard, or lost in a dispute (migration 0009). */
  refunded_cents: Generated<number>;
  refunded_at: Generated<string | null>;
  refund_reason: Generated<string | null>;
  /** The latest dispute of the charge and its Stripe status (needs_response, won, lost, ...) (migration 0009). */
  dispute_id: Generated<string | null>;
  dispute_status: Generated<string | null>;
  disputed_at: Generated<string | null>;
  /** What a lost dispute took back (recorded as a refund); 0 once given back by a win on appeal (migration 0025). */
  dispute_lost_cents: Generated<number>;
  /** The items' prices (migration 0063); total_cents = subtotal_cents - discount_cents + tax_cents. */
  subtotal_cents: Generated<number>;
  /** What discount codes took off the items (the sum of the items' discount_cents) (migration 0063). */
  discount_cents: Generated<number>;
  /** The VAT or sales tax collected; never part of a creator's share (migration 0063). */
  tax_cents: Generated<number>;
  /** The rate the built-in test checkout charged, in basis points; null when none was or Stripe Tax computed it (migration 0063). */
  tax_rate_bps: Generated<number | null>;
  /** Where the buyer is, ISO 3166-1 alpha-2 (given at checkout, or Stripe's billing address) (migration 0063). */
  country: Generated<string | null>;
  /** The buyer's VAT number, kept only when the reverse charge applied (migration 0063). */
  vat_number: Generated<string | null>;
}

/** The licence an order item was sold with (decision 101). */
export type LicenseType = "standard" | "extended" | "exclusive";

export interface OrderItemsTable {
  id: string;
  order_id: string;
  listing_id: string;
  creator_id: string;
  title: string;
  style: string;
  price_cents: number;
  file_key: string;
  file_mime_type: string;
  created_at: string;
  /** The item's place in its order: the cart's order (migration 0032). */
  position: Generated<number>;
  /** The bundle it was bought in (migration 0060), its price_cents then the item's part of the bundle's price; null when bought on its own. */
  bundle_id: Generated<string | null>;
  /** "standard", "extended" or "exclusive" (migration 0062); null for an item sold before tiers, under the original single licence. */
  license_type: LicenseType | null;
  /** What a discount code took off price_cents (migration 0064); the shares are computed on the rest. */
  discount_cents: Generated<number>;
  /** The code that took it off (migration 0064); null when none did. */
  discount_code_id: Generated<string | null>;
}

export interface EarningsTable {
  id: string;
  order_item_id: string;
  order_id: string;
  creator_id: string;
  listing_id: string;
  /** The creator's share. */
  amount_cents: number;
  /** The platform's share; amount_cents + platform_fee_cents = the item's price less its discount. */
  platform_fee_cents: number;
  /** 1 for a sale in the built-in test checkout (no money moved; not revenue on a production server). */
  test_mode: Generated<number>;
  created_at: string;
  /** Where the share is on its way to the creator (migration 0009). */
  status: Generated<ShareStatus>;
  /** While held by a dispute: the status a won dispute restores. */
  held_from: Generated<ShareStatus | null>;
  /** The creator's part of the item's refunds (at most amount_cents). */
  creator_reversed_cents: Generated<number>;
  /** The platform's part of the item's refunds (at most platform_fee_cents). */
  platform_reversed_cents: Generated<number>;
  /** The provider's transfer that sent the share, and how much it sent. */
  transfer_id: Generated<string | null>;
  transferred_cents: Generated<number>;
  transferred_at: Generated<string | null>;
  /** How much of the transfer has been reversed at the provider. */
  transfer_reversed_cents: Generated<number>;
  reversal_id: Generated<string | null>;
  reversed_at: Generated<string | null>;
  /** Sent back to the creator after a reversal was undone (a lost dispute won on appeal) (migration 0025). */
  reinstated_cents: Generated<number>;
  reinstatement_transfer_id: Generated<string | null>;
}

/**
 * owed: not sent yet; transferred: sent to the creator's payout account; held: a dispute is open; reversed: taken back in full;
 * elsewhere: a sale made in the creator's own Shopify store, paid to them there: nothing is owed through us (docs/decisions/073).
 */
export type ShareStatus = "owed" | "transferred" | "held" | "reversed" | "elsewhere";

export type PayoutProviderId = "stripe" | "test";
/** pending: onboarding not finished; active: transfers can be sent; restricted: the provider needs more from the creator. */
export type PayoutAccountStatus = "pending" | "active" | "restricted";

export interface PayoutAccountsTable {
  user_id: string;
  provider: PayoutProviderId;
  /** Stripe's acct_... id, or the test payout account's id. */
  account_id: string;
  status: PayoutAccountStatus;
  payouts_enabled: number;
  transfers_enabled: number;
  details_submitted: number;
  created_at: string;
  updated_at: string;
  /** The creator's country (ISO 3166-1 alpha-2), asked before onboarding; null for accounts made before (migration 0025). */
  country: Generated<string | null>;
}

/** The built-in test payout provider's own accounts (what Stripe keeps on its side). */
export interface TestPayoutAccountsTable {
  id: string;
  email: string;
  onboarded_at: string | null;
  created_at: string;
  /** As Stripe keeps them: the account's country and service agreement (migration 0025). */
  country: Generated<string | null>;
  service_agreement: Generated<"full" | "recipient">;
}

/** A refund that failed after it was recorded, undone once (migration 0025). */
export interface UndoneRefundsTable {
  refund_id: string;
  order_id: string;
  amount_cents: number;
  undone_at: string;
}

/** `requested` until the admin decides; `refunded` once the order is refunded in full (approved, or another way); `declined`. */
export type RefundRequestStatus = "requested" | "refunded" | "declined";

/** A buyer's request for a refund of a paid order, one per order (migration 0056): app/features/market. */
export interface RefundRequestsTable {
  id: string;
  order_id: string;
  status: Generated<RefundRequestStatus>;
  /** The buyer's words ("" once the buyer's details were erased). */
  reason: string;
  created_at: string;
  decided_at: string | null;
  /** The admin who approved or declined it; null when the order was refunded another way. */
  decided_by: string | null;
  /** Why the admin declined, as mailed to the buyer. */
  decline_reason: string | null;
}

export type RefundRequestRow = Selectable<RefundRequestsTable>;

/** `unconfirmed` until the mailed link is used, then `confirmed`; an ended follow has no row. */
export type FollowStatus = "unconfirmed" | "confirmed";

/** An address following a creator, no account (migration 0059): app/features/market. */
export interface FollowsTable {
  id: string;
  creator_id: string;
  /** The follower's address, as typed (trimmed). */
  email: string;
  /** The address in lower case: one address follows one creator once. */
  email_key: string;
  status: Generated<FollowStatus>;
  /** sha256 of the mailed confirmation link's token; null once confirmed. */
  token_hash: string | null;
  created_at: string;
  confirmed_at: string | null;
  /** The next digest lists the creator's listings made after this moment. */
  digest_since: string | null;
  /** When the last digest was queued (at most one a day). */
  last_digest_at: string | null;
}

export type FollowRow = Selectable<FollowsTable>;

export type BundleStatus = "active" | "withdrawn";

/** A creator's listings sold together below their sum (migration 0060): app/features/market. */
export interface BundlesTable {
  id: string;
  /** The creator. */
  user_id: string;
  title: string;
  price_cents: number;
  /** `withdrawn` by its creator, or when one of its listings was withdrawn. */
  status: Generated<BundleStatus>;
  created_at: string;
  updated_at: string;
}

/** One listing of a bundle, in the creator's order (migration 0060). */
export interface BundleItemsTable {
  bundle_id: string;
  listing_id: string;
  position: number;
}

export type BundleRow = Selectable<BundlesTable>;

/** A creator's discount code (migration 0064): app/features/market/discounts. */
export interface DiscountCodesTable {
  id: string;
  /** The creator whose items it takes money off. */
  user_id: string;
  /** As buyers type it, in upper case. */
  code: string;
  /** 1-100, or null for an amount off. */
  percent_off: number | null;
  /** Cents off the creator's items in the order, or null for a percent off. */
  amount_off_cents: number | null;
  /** JSON array of the listings it applies to; null: all the creator's listings. */
  listing_ids: string | null;
  starts_at: string | null;
  ends_at: string | null;
  /** Paid orders it may be used in; null: no limit. */
  max_redemptions: number | null;
  /** Paid orders that used it, counted once each at fulfilment. */
  redemptions: Generated<number>;
  /** Set when the creator deleted it: no longer accepted, kept for the figures per code. */
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export type DiscountCodeRow = Selectable<DiscountCodesTable>;

export interface TestPayoutMovementsTable {
  id: string;
  account_id: string;
  kind: "transfer" | "reversal";
  amount_cents: number;
  /** For a reversal: the transfer it reverses. */
  transfer_id: string | null;
  transfer_group: string | null;
  idempotency_key: string;
  created_at: string;
}

/** One row per listing, visitor and day: a visitor's views of a listing count once a day (migration 0008). */
/** A listing's day (UTC): views and add-to-carts, each once per visitor and day (migration 0029). */
export interface ListingDaysTable {
  listing_id: string;
  /** The listing's creator, so a creator's days are one index range. */
  creator_id: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  views: Generated<number>;
  cart_adds: Generated<number>;
  /** Saves of the listing (POST /saved), once per visitor and day (migration 0061). */
  saves: Generated<number>;
}

/** One row per day, visitor and listing a visitor added to a cart; today and yesterday only (primary key in that order). */
export interface ListingCartAddsTable {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** HMAC of the day and the visitor, as in listing_views. */
  visitor_hash: string;
  /** The listing (no foreign key: the rows last a day or two). */
  listing_id: string;
}

/** One row per day, visitor and listing a visitor saved; today and yesterday only (migration 0061). */
export interface ListingSavesTable {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** HMAC of the day and the visitor, as in listing_views. */
  visitor_hash: string;
  /** The listing (no foreign key: the rows last a day or two). */
  listing_id: string;
}

export interface ListingViewsTable {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** HMAC of the day and the visitor (a user id, or the client address: IPv4, or an IPv6 /64). */
  visitor_hash: string;
  /** The listing (no foreign key: the rows last a day or two). */
  listing_id: string;
}

/**
 * The marketplace search index (migration 0013): one entry per listing the
 * marketplace shows (active, creator not banned), kept in step by triggers.
 * `id` is the entry's row in the FTS5 table listing_search (title,
 * description, tags; trigram tokenizer), numbered in the order listings
 * entered the index.
 */
export interface ListingSearchEntriesTable {
  id: Generated<number>;
  listing_id: string;
}

/** The FTS5 table of the search index: the searched text of each entry (rowid = listing_search_entries.id). Written only by triggers. */
export interface ListingSearchTable {
  title: string;
  description: string;
  tags: string;
}

export interface DownloadGrantsTable {
  id: string;
  order_item_id: string;
  order_id: string;
  token_hash: string;
  max_downloads: number;
  downloads_used: Generated<number>;
  expires_at: string;
  created_at: string;
}

export interface WebhookEventsTable {
  /** Stripe's event id. */
  id: string;
  type: string;
  processed_at: string;
}

export type IntegrationMethod = "oauth" | "apiKey";

export interface IntegrationsTable {
  id: string;
  user_id: string;
  /** A platform id of app/features/publishing/platforms.ts. */
  platform: string;
  method: IntegrationMethod;
  /** Sealed (AES-256-GCM) JSON of the secret (app/infra/crypto-box.server.ts). */
  credentials: string;
  key_last4: string;
  wallet_address: string | null;
  shop_domain: string | null;
  scopes: string | null;
  /** The account name a platform knows the creator by (Adobe Stock's SFTP username; migration 0011). */
  account_name: string | null;
  /** The SFTP server's host key fingerprint (SHA256:...) seen when the connection was saved, then required (migration 0011). */
  host_key: string | null;
  is_active: Generated<number>;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** When the credentials were last saved by connecting (never by a token renewal) (migration 0043). */
  connected_at: Generated<string | null>;
}

/**
 * An install started from a store's Shopify admin by someone not signed in
 * (migration 0044): its OAuth state (hashed, used once), then the access
 * Shopify granted, sealed, until a signed-in creator claims it with the claim
 * token the installing browser holds (hashed), or it expires.
 */
export interface ShopifyInstallsTable {
  id: string;
  shop_domain: string;
  state_hash: string;
  state_used_at: string | null;
  /** The granted token (sealed, bound to the row's id), once the callback exchanged the code. */
  credentials: string | null;
  claim_hash: string | null;
  created_at: string;
  /** Ten minutes after the install for the callback; an hour after the callback for the claim. */
  expires_at: string;
}

export interface OauthStatesTable {
  state_hash: string;
  user_id: string;
  platform: string;
  shop_domain: string | null;
  display: Generated<"popup" | "page">;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export type ListingPlatformStatus =
  "queued" | "live" | "needs_auth" | "ready_to_mint" | "export_ready" | "submitted" | "failed";

export interface ListingPlatformsTable {
  id: string;
  user_id: string;
  stylized_image_id: string;
  listing_id: string | null;
  platform: string;
  status: Generated<ListingPlatformStatus>;
  url: string | null;
  last_error: string | null;
  title: string;
  description: Generated<string>;
  price_cents: number;
  /** The own marketplace's Extended and Exclusive licence prices asked for (migration 0062); null when not offered. */
  extended_price_cents: Generated<number | null>;
  exclusive_price_cents: Generated<number | null>;
  /** JSON array of strings. */
  tags: Generated<string>;
  licensing_enabled: Generated<number>;
  nft_enabled: Generated<number>;
  external_id: string | null;
  /** The Shopify store (<name>.myshopify.com) external_id belongs to (migration 0010). */
  external_shop: string | null;
  /** The mint kit or export package (a zip under kits/). */
  artifact_key: string | null;
  /** JSON of what was sent, e.g. a submitted file's name, size and how it was upscaled (migration 0011). */
  details: string | null;
  revision: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** Each webhook Shopify delivered, by its X-Shopify-Webhook-Id (migration 0010). */
export interface ShopifyWebhookReceiptsTable {
  webhook_id: string;
  topic: string;
  shop_domain: string;
  outcome: string;
  received_at: string;
  /** SHA-256 (hex) of the raw signed body: one body is acted on once, whatever its (unsigned) webhook id. Null on receipts from before it was kept. */
  body_sha256: string | null;
}

/** delivered: the receipt, download and licence went to the buyer; otherwise why not. */
export type ShopifySaleOutcome = "delivered" | "no_buyer_email" | "no_listing";

/** One line of a paid Shopify order whose product is one of our publications (migration 0043). */
export interface ShopifySalesTable {
  id: string;
  shop_domain: string;
  /** Shopify's order id (its numeric id, as text). */
  shopify_order_id: string;
  /** Shopify's line item id: one row per line, whatever the deliveries. */
  line_item_id: string;
  creator_id: string;
  /** The marketplace listing whose file was delivered (null when none was). */
  listing_id: string | null;
  /** Our order (provider shopify) holding the receipt, grant and licence; null when not delivered. */
  order_id: string | null;
  outcome: ShopifySaleOutcome;
  created_at: string;
}

export type AccountExportStatus = "pending" | "ready" | "failed";

/** A creator's export of their own data (migration 0023): the zip under exports/ and when its link stops working. */
export interface AccountExportsTable {
  id: string;
  user_id: string;
  status: Generated<AccountExportStatus>;
  /** The job that builds the zip. */
  job_id: string | null;
  /** The zip in the file store (exports/<id>.zip) while it may be downloaded; null before it is built and once it expired. */
  file_key: string | null;
  bytes: number | null;
  /** Why the export failed, in words the creator can read. */
  error: string | null;
  created_at: string;
  updated_at: string;
  ready_at: string | null;
  /** When the download link stops working and the sweep removes the zip. */
  expires_at: string | null;
}

export type ModelReleaseKind = "signed" | "uploaded";

/** The model release of the person a stylized image shows (migration 0026): its PDF under releases/. */
export interface ModelReleasesTable {
  id: string;
  user_id: string;
  stylized_image_id: string;
  /** Signed in the app, or a signed PDF the creator uploaded. */
  kind: ModelReleaseKind;
  /** The person shown (a release signed in the app); null for an uploaded one. */
  model_name: string | null;
  /** The day it was signed, YYYY-MM-DD (a release signed in the app). */
  signed_on: string | null;
  /** The typed signature (a release signed in the app). */
  signature: string | null;
  /** 1 when a drawn signature was added to the typed one. */
  drawn_signature: Generated<number>;
  /**
   * 1 when a release signed in the app names a photographer other than the
   * model, whose signature its PDF still waits for (migration 0047): no stock
   * agency is sent the image until a signed copy is uploaded.
   */
  awaiting_photographer: Generated<number>;
  file_key: string;
  bytes: number;
  created_at: string;
}

/** The beta's waitlist (migration 0030): one row per address; an invitation keeps only its token's sha256. */
export interface WaitlistTable {
  id: string;
  email: string;
  created_at: string;
  /** When the latest invitation was sent (null: not invited yet). */
  invited_at: string | null;
  /** The admin who sent it. */
  invited_by: string | null;
  invite_token_hash: string | null;
  /** When the latest invitation's link stops working. */
  invite_expires_at: string | null;
  /** When an account was made through the invitation: it is spent. */
  invite_used_at: string | null;
  /** That account (null once it is erased). */
  user_id: string | null;
}

/** A buyer's rating of a purchased item (migration 0031): once per order item, 1 to 5 stars and a short text. */
export interface RatingsTable {
  id: string;
  order_item_id: string;
  order_id: string;
  listing_id: string;
  stars: number;
  text: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** A key an object is (about to be) stored under, or removed from, in object storage (app/infra/file-intents.server.ts). */
export interface FileIntentsTable {
  file_key: string;
  created_at: string;
  /** When set: the object is removed and may go after this time, unless a row names the key again. */
  remove_after: string | null;
}

/** One hit on a rate limit counted in the database (when several processes count): `bucket` is the rule and its key. */
export interface RateLimitHitsTable {
  id: string;
  bucket: string;
  at: string;
}

/**
 * One consent given or withdrawn (migration 0049), never updated: a withdrawal
 * is a row of its own. `text_version` names the text (its engine and a hash of
 * its lines); a grant keeps the lines shown, as a JSON array, in `text`.
 */
export interface ConsentLogTable {
  id: string;
  user_id: string;
  /** What the consent is for: "face-processing". */
  purpose: string;
  action: "grant" | "withdraw";
  text_version: string;
  /** The lines of the text agreed to (JSON array of strings); null on a withdrawal. */
  text: string | null;
  at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  email_changes: EmailChangesTable;
  registration_links: RegistrationLinksTable;
  auth_failures: AuthFailuresTable;
  login_attempts: LoginAttemptsTable;
  audit_log: AuditLogTable;
  jobs: JobsTable;
  usage_events: UsageEventsTable;
  images: ImagesTable;
  stylized_images: StylizedImagesTable;
  listings: ListingsTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  earnings: EarningsTable;
  download_grants: DownloadGrantsTable;
  webhook_events: WebhookEventsTable;
  integrations: IntegrationsTable;
  oauth_states: OauthStatesTable;
  shopify_installs: ShopifyInstallsTable;
  listing_platforms: ListingPlatformsTable;
  listing_views: ListingViewsTable;
  listing_days: ListingDaysTable;
  listing_cart_adds: ListingCartAddsTable;
  listing_saves: ListingSavesTable;
  listing_search_entries: ListingSearchEntriesTable;
  listing_search: ListingSearchTable;
  shopify_webhook_receipts: ShopifyWebhookReceiptsTable;
  shopify_sales: ShopifySalesTable;
  payout_accounts: PayoutAccountsTable;
  test_payout_accounts: TestPayoutAccountsTable;
  test_payout_movements: TestPayoutMovementsTable;
  undone_refunds: UndoneRefundsTable;
  account_exports: AccountExportsTable;
  model_releases: ModelReleasesTable;
  waitlist: WaitlistTable;
  ratings: RatingsTable;
  periodic_leases: PeriodicLeasesTable;
  file_intents: FileIntentsTable;
  rate_limit_hits: RateLimitHitsTable;
  consent_log: ConsentLogTable;
  verified_faces: VerifiedFacesTable;
  reports: ReportsTable;
  refund_requests: RefundRequestsTable;
  follows: FollowsTable;
  bundles: BundlesTable;
  bundle_items: BundleItemsTable;
  discount_codes: DiscountCodesTable;
}

export type ReportReason = "my-likeness" | "intimate" | "copyright" | "other";
/** `unconfirmed` until the reporter's mailed link is confirmed, `open` until the admin decides, then `closed`. */
export type ReportStatus = "unconfirmed" | "open" | "closed";
export type ReportDecision = "remove" | "dismiss";

/** A report of a listing or a storefront (migration 0051): app/features/reports. */
export interface ReportsTable {
  id: string;
  /** The listing reported; null when a storefront (a handle) is reported. */
  listing_id: string | null;
  /** The creator of the listing or storefront. */
  creator_id: string;
  /** The storefront's handle, when a storefront is reported. */
  handle: string | null;
  reason: ReportReason;
  /** The reporter's address, as typed (trimmed). */
  email: string;
  /** The reporter's address in lower case: one reporter's reports of one target are one report. */
  email_key: string;
  details: Generated<string>;
  /** sha256 of the mailed confirmation link's token; null once confirmed. */
  token_hash: string | null;
  status: Generated<ReportStatus>;
  /** 1 while this (confirmed, intimate) report keeps its target hidden. */
  hid_listings: Generated<number>;
  created_at: string;
  confirmed_at: string | null;
  /** confirmed_at + 48 hours: when a decision is due. */
  due_at: string | null;
  decision: ReportDecision | null;
  note: string | null;
  decided_by: string | null;
  decided_at: string | null;
}

export type ReportRow = Selectable<ReportsTable>;

/** Who runs a periodic task now (migration 0035): app/infra/periodic-leases.server.ts. */
export interface PeriodicLeasesTable {
  name: string;
  holder: string;
  expires_at: string;
  updated_at: string;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type JobRow = Selectable<JobsTable>;
export type ImageRow = Selectable<ImagesTable>;
export type StylizedImageRow = Selectable<StylizedImagesTable>;
export type ListingRow = Selectable<ListingsTable>;
export type OrderRow = Selectable<OrdersTable>;
export type OrderItemRow = Selectable<OrderItemsTable>;
export type EarningRow = Selectable<EarningsTable>;
export type PayoutAccountRow = Selectable<PayoutAccountsTable>;
export type DownloadGrantRow = Selectable<DownloadGrantsTable>;
export type IntegrationRow = Selectable<IntegrationsTable>;
export type OauthStateRow = Selectable<OauthStatesTable>;
export type ListingPlatformRow = Selectable<ListingPlatformsTable>;
export type AccountExportRow = Selectable<AccountExportsTable>;
export type ModelReleaseRow = Selectable<ModelReleasesTable>;
export type WaitlistRow = Selectable<WaitlistTable>;
export type RatingRow = Selectable<RatingsTable>;
