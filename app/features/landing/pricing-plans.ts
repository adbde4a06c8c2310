import { CREATOR_SHARE_PERCENT } from "~/features/payouts/types";

/**
 * The landing page's pricing plans and marketing figures.
 * These are static claims printed on the page, not server data: the free beta is
 * what the product offers today; Regular and Premium are shown as coming soon.
 */

export interface PricingPlan {
  id: "beta" | "regular" | "premium";
  name: string;
  /** As shown: "Free", "$29". */
  price: string;
  /** "/month" for the paid tiers. */
  period?: string;
  /** The struck-through former price, if any. */
  originalPrice?: string;
  description: string;
  savings?: string;
  features: string[];
  /** The creator's share of each sale, as shown. */
  earnings: string;
  buttonText: string;
  popular: boolean;
  comingSoon: boolean;
}

export const PRICING_PLANS: readonly PricingPlan[] = [
  {
    id: "beta",
    name: "Beta Access",
    price: "Free",
    originalPrice: "$29",
    description: "Everything you need to start earning, free while the beta lasts.",
    savings: "Save $29/month",
    features: [
      "Unlimited selfies",
      "All four AI styles",
      `Keep ${CREATOR_SHARE_PERCENT}% of earnings`,
      "Marketplace listing",
      "Priority beta support",
    ],
    earnings: `Keep ${CREATOR_SHARE_PERCENT}%`,
    buttonText: "Claim Beta Spot",
    popular: true,
    comingSoon: false,
  },
  {
    id: "regular",
    name: "Regular",
    price: "$29",
    period: "/month",
    description: "For creators who publish a few new looks every month.",
    features: [
      "10 selfies per month",
      "3 AI styles",
      "Keep 70% of earnings",
      "Marketplace listing",
    ],
    earnings: "Keep 70%",
    buttonText: "Start with the Free Beta",
    popular: false,
    comingSoon: true,
  },
  {
    id: "premium",
    name: "Premium",
    price: "$79",
    period: "/month",
    description: "For full-time creators selling across every channel.",
    features: [
      "Unlimited selfies",
      "All four AI styles",
      "Keep 90% of earnings",
      "NFT minting",
      "Marketplace listing",
    ],
    earnings: "Keep 90%",
    buttonText: "Start with the Free Beta",
    popular: false,
    comingSoon: true,
  },
];

/** Marketing figures: static claims, labelled illustrative wherever they show. */
export const AVERAGE_MONTHLY_EARNINGS = 347;
/** The illustrative spots (without BETA_SPOTS): 127 of 200 remaining, dropping. */
export const BETA_SPOTS_TOTAL = 200;
export const BETA_SPOTS_REMAINING = 127;
/** Spots never drop below this. */
export const BETA_SPOTS_FLOOR = 50;
/** Every this many ms the spots drop by a random 0 to BETA_SPOTS_MAX_DROP. */
export const BETA_SPOTS_INTERVAL_MS = 30_000;
export const BETA_SPOTS_MAX_DROP = 2;
