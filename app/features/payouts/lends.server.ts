/** What payouts lends other features: plain service calls on its tables, not operations of their own. */

export { recordSale, type SoldItem } from "~/features/payouts/earnings.server";
