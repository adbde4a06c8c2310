import type { Migration } from "kysely";
import * as accounts from "./2026-11-22-0001-accounts";
import * as images from "./2026-11-22-0002-images";
import * as selling from "./2026-11-22-0003-selling";
import * as studioJobs from "./2026-11-22-0004-studio-jobs";
import * as publishing from "./2026-11-22-0005-publishing";
import * as throttles from "./2026-11-24-0006-throttles";
import * as quotas from "./2026-11-24-0007-quotas";
import * as testOrdersAndViews from "./2026-11-24-0008-test-orders-and-views";
import * as payoutsAndRefunds from "./2026-11-25-0009-payouts-and-refunds";
import * as shopifyTokens from "./2026-11-25-0010-shopify-tokens";
import * as sftpSubmissions from "./2026-11-25-0011-sftp-submissions";
import * as imageProvenance from "./2026-11-25-0012-image-provenance";
import * as listingSearchIndex from "./2026-11-26-0013-listing-search-index";
import * as licenseIdsAndSessionHashes from "./2026-11-26-0015-license-ids-and-session-hashes";
import * as authHardening from "./2026-11-26-0016-auth-hardening";
import * as webhookDedupeAndVariants from "./2026-11-26-0017-webhook-dedupe-and-variants";
import * as accountAndConsent from "./2026-11-26-0019-account-and-consent";
import * as sessionsList from "./2026-11-26-0021-sessions-list";
import * as retention from "./2026-11-26-0022-retention";
import * as accountExports from "./2026-11-26-0023-account-exports";
import * as erasure from "./2026-11-26-0024-erasure";
import * as payoutCountries from "./2026-11-26-0025-payout-countries";
import * as modelReleases from "./2026-11-26-0026-model-releases";
import * as shopifyStoreOwner from "./2026-11-26-0027-shopify-store-owner";
import * as listingPages from "./2026-11-26-0028-listing-pages";
import * as analyticsEvents from "./2026-11-26-0029-analytics-events";
import * as waitlist from "./2026-11-26-0030-waitlist";
import * as ratings from "./2026-11-26-0031-ratings";
import * as postgresBaseline from "./2026-11-26-0031-postgres-baseline";
import * as orderItemPositions from "./2026-11-26-0032-order-item-positions";
import * as jobRequestIds from "./2026-11-27-0034-job-request-ids";
import * as periodicLeases from "./2026-11-27-0035-periodic-leases";
import * as styleSeeds from "./2026-11-27-0036-style-seeds";
import * as rateLimitHits from "./2026-11-28-0037-rate-limit-hits";
import * as emailChangePreviousAddress from "./2026-11-28-0041-email-change-previous-address";
import * as shopifySales from "./2026-11-29-0043-shopify-sales";
import * as registrationLinks from "./2026-11-28-0040-registration-links";
import * as fileIntents from "./2026-11-27-0033-file-intents";
import * as visitorDays from "./2026-11-28-0039-visitor-days";
import * as searchEntryOrderKeys from "./2026-11-28-0042-search-entry-order-keys";
import * as shopifyInstalls from "./2026-11-29-0044-shopify-installs";
import * as releasePhotographer from "./2026-11-29-0047-release-photographer";
import * as verifiedFaces from "./2026-11-29-0050-verified-faces";
import * as reports from "./2026-11-29-0051-reports";
import * as listingSourceType from "./2026-11-29-0055-listing-source-type";
import * as refundRequests from "./2026-11-29-0056-refund-requests";
import * as listingUpscaling from "./2026-11-29-0057-listing-upscaling";
import * as follows from "./2026-11-29-0059-follows";
import * as bundles from "./2026-11-30-0060-bundles";
import * as listingSaves from "./2026-11-30-0061-listing-saves";
import * as licenceTiers from "./2026-11-30-0062-licence-tiers";
import * as orderTax from "./2026-11-30-0063-order-tax";
import * as discountCodes from "./2026-11-30-0064-discount-codes";
import * as rateLimitTakeFunction from "./2026-11-29-0048-rate-limit-take-function";
import * as consentLog from "./2026-11-29-0049-consent-log";

/**
 * The migrations, by name; names sort by date. A test checks that each file in
 * this folder is listed here. (Static lists, so the server bundle carries them.)
 *
 * SQLite runs its own history up to 2026-11-26-0031; PostgreSQL starts from a
 * baseline equal to that schema. Every migration after it is in
 * `bothEngines`: it runs on SQLite and PostgreSQL alike, and where the two
 * spell something differently the migration says so itself. A migration
 * of something only one engine has (PostgreSQL's search entries, whose
 * SQLite counterpart is FTS5) is in that engine's history alone.
 */
const sqliteHistory: Record<string, Migration> = {
  "2026-11-22-0001-accounts": accounts,
  "2026-11-22-0002-images": images,
  "2026-11-22-0003-selling": selling,
  "2026-11-22-0004-studio-jobs": studioJobs,
  "2026-11-22-0005-publishing": publishing,
  "2026-11-24-0006-throttles": throttles,
  "2026-11-24-0007-quotas": quotas,
  "2026-11-24-0008-test-orders-and-views": testOrdersAndViews,
  "2026-11-25-0009-payouts-and-refunds": payoutsAndRefunds,
  "2026-11-25-0010-shopify-tokens": shopifyTokens,
  "2026-11-25-0011-sftp-submissions": sftpSubmissions,
  "2026-11-25-0012-image-provenance": imageProvenance,
  "2026-11-26-0013-listing-search-index": listingSearchIndex,
  "2026-11-26-0015-license-ids-and-session-hashes": licenseIdsAndSessionHashes,
  "2026-11-26-0016-auth-hardening": authHardening,
  "2026-11-26-0017-webhook-dedupe-and-variants": webhookDedupeAndVariants,
  "2026-11-26-0019-account-and-consent": accountAndConsent,
  "2026-11-26-0021-sessions-list": sessionsList,
  "2026-11-26-0022-retention": retention,
  "2026-11-26-0023-account-exports": accountExports,
  "2026-11-26-0024-erasure": erasure,
  "2026-11-26-0025-payout-countries": payoutCountries,
  "2026-11-26-0026-model-releases": modelReleases,
  "2026-11-26-0027-shopify-store-owner": shopifyStoreOwner,
  "2026-11-26-0028-listing-pages": listingPages,
  "2026-11-26-0029-analytics-events": analyticsEvents,
  "2026-11-26-0030-waitlist": waitlist,
  "2026-11-26-0031-ratings": ratings,
};

const postgresHistory: Record<string, Migration> = {
  "2026-11-26-0031-postgres-baseline": postgresBaseline,
  "2026-11-28-0042-search-entry-order-keys": searchEntryOrderKeys,
  "2026-11-29-0048-rate-limit-take-function": rateLimitTakeFunction,
};

const bothEngines: Record<string, Migration> = {
  "2026-11-26-0032-order-item-positions": orderItemPositions,
  "2026-11-27-0034-job-request-ids": jobRequestIds,
  "2026-11-27-0035-periodic-leases": periodicLeases,
  "2026-11-27-0036-style-seeds": styleSeeds,
  "2026-11-27-0033-file-intents": fileIntents,
  "2026-11-28-0037-rate-limit-hits": rateLimitHits,
  "2026-11-28-0039-visitor-days": visitorDays,
  "2026-11-28-0040-registration-links": registrationLinks,
  "2026-11-28-0041-email-change-previous-address": emailChangePreviousAddress,
  "2026-11-29-0043-shopify-sales": shopifySales,
  "2026-11-29-0044-shopify-installs": shopifyInstalls,
  "2026-11-29-0047-release-photographer": releasePhotographer,
  "2026-11-29-0049-consent-log": consentLog,
  "2026-11-29-0050-verified-faces": verifiedFaces,
  "2026-11-29-0051-reports": reports,
  "2026-11-29-0055-listing-source-type": listingSourceType,
  "2026-11-29-0056-refund-requests": refundRequests,
  "2026-11-29-0057-listing-upscaling": listingUpscaling,
  "2026-11-29-0059-follows": follows,
  "2026-11-30-0060-bundles": bundles,
  "2026-11-30-0061-listing-saves": listingSaves,
  "2026-11-30-0062-licence-tiers": licenceTiers,
  "2026-11-30-0063-order-tax": orderTax,
  "2026-11-30-0064-discount-codes": discountCodes,
};

/** The migrations an engine runs, in name order. */
export function migrationsFor(engine: "sqlite" | "postgres"): Record<string, Migration> {
  return { ...(engine === "postgres" ? postgresHistory : sqliteHistory), ...bothEngines };
}

/** Every migration file's module, by name (both engines). */
export const allMigrations: Record<string, Migration> = {
  ...sqliteHistory,
  ...postgresHistory,
  ...bothEngines,
};
