/** The four styles and their badges. */

export const STYLE_IDS = ["professional", "cartoon", "anime", "fantasy"] as const;
export type StyleId = (typeof STYLE_IDS)[number];

export interface StyleOption {
  id: StyleId;
  name: string;
  description: string;
  earningRange: string;
  demand: "Very High" | "High" | "Medium";
}

export const STYLES: readonly StyleOption[] = [
  {
    id: "professional",
    name: "Professional",
    description: "A polished studio headshot for LinkedIn, resumes and corporate profiles.",
    earningRange: "$50-150",
    demand: "High",
  },
  {
    id: "cartoon",
    name: "Cartoon",
    description: "Bold outlines and flat, playful colours, like an animated feature.",
    earningRange: "$25-75",
    demand: "Very High",
  },
  {
    id: "anime",
    name: "Anime",
    description: "Cel-shaded, bright and clean, in the style of Japanese animation.",
    earningRange: "$30-100",
    demand: "High",
  },
  {
    id: "fantasy",
    name: "Fantasy",
    description: "A dramatic, magical portrait with glow, sparkles and an epic colour grade.",
    earningRange: "$40-120",
    demand: "Medium",
  },
];

export function isStyleId(value: unknown): value is StyleId {
  return typeof value === "string" && (STYLE_IDS as readonly string[]).includes(value);
}

export function styleName(id: string): string {
  return STYLES.find((style) => style.id === id)?.name ?? id;
}

/** Dollars; a listing with no price is sold at this price. */
export const DEFAULT_PRICE = 25;

/** Suggested price by style: professional 75, fantasy 60, anime 50, otherwise 35. */
export function suggestedPrice(style: string): number {
  switch (style) {
    case "professional":
      return 75;
    case "fantasy":
      return 60;
    case "anime":
      return 50;
    default:
      return 35;
  }
}

/** Style polling: every 2 s, up to 30 attempts. */
export const STYLE_POLL_INTERVAL_MS = 2000;
export const STYLE_POLL_MAX_ATTEMPTS = 30;
/** The generating overlay's progress is fixed at 33. */
export const GENERATING_PROGRESS = 33;
