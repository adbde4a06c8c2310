/** What the market lends other features: plain service calls on its tables, not operations of their own. */

export { recordChargeOfOrder } from "~/features/market/orders.server";
export { activeListingIdsAmong } from "~/features/market/listings.server";
