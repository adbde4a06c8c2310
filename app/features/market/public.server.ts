/**
 * What the market hands other features: plain service calls on its tables that
 * are not operations of their own. Publishing and the studio look up and
 * withdraw a stylized image's listing; erasure withdraws an erased creator's
 * listings, finds the files buyers still own and forgets a buyer's details;
 * payouts records the charge that paid an order; publishing delivers what a
 * creator's Shopify store sold and answers Shopify's requests about its buyers;
 * reports find what they target, hide it pending a decision and withdraw it
 * when a report is upheld; the boot enlarges the files of listings made before
 * sold files had a size; follows: the account's follower count, erasure's part, the
 * admin's drop of an address and the boot's periodic digests. Publishing asks
 * whether an image was sold with an Exclusive licence (never published again).
 */
export {
  activeListingForStylizedImage,
  activeListingIdsAmong,
  marketplaceListingUrl,
  ownStylizedImage,
  parseTags,
  sellableFileKey,
  SOLD_EXCLUSIVELY,
  soldExclusively,
  withdrawListingsForStylizedImage,
  withdrawReportedListings,
} from "~/features/market/catalog/listings.server";
export {
  hideReportedListings,
  reportableTarget,
  unhideReportedListings,
  type ReportableTarget,
} from "~/features/market/catalog/listing-visibility.server";
export {
  boughtFileKeysOfCreator,
  eraseListingsOfCreator,
  forgetBuyerDetails,
  withdrawListingsOfErasedCreator,
} from "~/features/market/creator-erasure.server";
export { recordChargeOfOrder } from "~/features/market/orders/orders.server";
export { enlargeUndersizedListings } from "~/features/market/catalog/sale-file.server";
export {
  forgetShopifyBuyer,
  shopifyOrdersHeld,
  undeliveredShopifySales,
} from "~/features/market/webhooks/shopify-buyers.server";
export {
  assertSaleConsent,
  listingsAwaitingConsent,
  saleConsentOf,
  type ListingAwaitingConsent,
} from "~/features/market/catalog/sale-consent.server";
export {
  dropFollowerAddress,
  eraseFollowsOf,
  followerCount,
  sendFollowDigests,
} from "~/features/market/follows/follows.server";
