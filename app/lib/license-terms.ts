import { PRODUCT_NAME } from "./product";

/**
 * The licences a marketplace purchase carries (docs/decisions/101), in plain
 * terms; the license page adds the order's particulars. Every listing is sold
 * with the Standard licence, and with the Extended and Exclusive ones when its
 * creator prices them. An item sold before the tiers existed keeps the single
 * licence it was sold with (`original`): it read as a Standard licence but
 * allowed merchandise, and terms are never narrowed after a sale.
 */
export const LICENSE_TYPES = ["standard", "extended", "exclusive"] as const;
export type LicenseType = (typeof LICENSE_TYPES)[number];
/** A licence as sold: one of the tiers, or the original single licence of an item sold before them. */
export type LicenseEdition = LicenseType | "original";

export function isLicenseType(value: unknown): value is LicenseType {
  return typeof value === "string" && (LICENSE_TYPES as readonly string[]).includes(value);
}

/** The edition an order item was sold with: its stored type, or the original licence when none (sold before the tiers). */
export function licenseEditionOf(licenseType: LicenseType | null): LicenseEdition {
  return licenseType ?? "original";
}

/** The tier an order item reads as in the API: sold before the tiers, Standard. */
export function licenseTypeOf(licenseType: LicenseType | null): LicenseType {
  return licenseType ?? "standard";
}

/** The Standard licence's name (the public /license page, mint kits, help). */
export const LICENSE_NAME = "Standard Commercial License";

/** At most this many copies under the Standard licence. */
export const STANDARD_COPY_LIMIT = 500_000;

export interface LicenseTerm {
  heading: string;
  text: string;
}

export interface LicenseText {
  /** The licence's name: "Extended Commercial License". */
  name: string;
  /** The tier's word: "Extended". */
  tier: string;
  /** One sentence of what it allows, for the listing page and the receipt. */
  summary: string;
  terms: readonly LicenseTerm[];
}

const GRANT = (exclusive: boolean) =>
  `The creator, through ${PRODUCT_NAME}, grants the licensee named on this page a perpetual, worldwide, ${exclusive ? "" : "non-exclusive, "}non-transferable license to use the licensed image in personal and commercial projects.`;

const EDITING =
  "You may crop, resize, recolour and otherwise edit the image, and use it as part of a larger design or derivative work.";

const NEVER =
  "Reselling, sublicensing or giving away the image on its own or as a file others can extract (including stock and wallpaper sites); using it in a trademark or logo; using it to train or fine-tune machine-learning models; or using it in a way that is defamatory, deceptive or unlawful, or that suggests the person shown endorses a product or view.";

const AI_CONTENT: LicenseTerm = {
  heading: "AI-generated content",
  text: "The image was made with AI from a photo supplied by the creator, who confirmed the right to use it. Where the law requires, disclose that the image is AI-generated; the file carries this disclosure in its metadata.",
};

const NO_WARRANTY: LicenseTerm = {
  heading: "No warranty",
  text: "The image is provided as is. To the extent the law allows, neither the creator nor the platform is liable for any loss arising from its use beyond the price paid.",
};

const SHARED_OWNERSHIP: LicenseTerm = {
  heading: "Ownership",
  text: "The creator keeps the copyright and may license the same image to others. This license is for the licensee only and ends if its terms are broken.",
};

const MERCHANDISE_ALLOWED =
  "Merchandise and templates for resale are allowed, also where the image is their main value: printed products, posters, clothing, mugs, phone cases, and design, web or print templates others buy.";

export const LICENSES: Record<LicenseEdition, LicenseText> = {
  standard: {
    name: LICENSE_NAME,
    tier: "Standard",
    summary:
      "Personal and commercial use, up to 500,000 copies; no merchandise or templates for resale where the image is the main value.",
    terms: [
      { heading: "Grant", text: GRANT(false) },
      {
        heading: "Permitted uses",
        text: `Websites, social media, advertising, marketing material, presentations, packaging, editorial use and products where the image is not the main value, up to ${STANDARD_COPY_LIMIT.toLocaleString("en-US")} copies in all (printed or distributed copies of everything that carries it). ${EDITING}`,
      },
      {
        heading: "Not permitted",
        text: `Merchandise or templates for resale where the image is the main value (posters, prints, clothing, mugs, phone cases, design, web or print templates), and more than ${STANDARD_COPY_LIMIT.toLocaleString("en-US")} copies: the Extended license allows both. Also ${NEVER.charAt(0).toLowerCase()}${NEVER.slice(1)}`,
      },
      AI_CONTENT,
      SHARED_OWNERSHIP,
      NO_WARRANTY,
    ],
  },
  extended: {
    name: "Extended Commercial License",
    tier: "Extended",
    summary:
      "Everything the Standard license allows, with no cap on copies, and merchandise and templates for resale.",
    terms: [
      { heading: "Grant", text: GRANT(false) },
      {
        heading: "Permitted uses",
        text: `Websites, social media, advertising, marketing material, presentations, packaging, editorial use and products, with no cap on the number of copies. ${MERCHANDISE_ALLOWED} ${EDITING}`,
      },
      { heading: "Not permitted", text: NEVER },
      AI_CONTENT,
      SHARED_OWNERSHIP,
      NO_WARRANTY,
    ],
  },
  exclusive: {
    name: "Exclusive Commercial License",
    tier: "Exclusive",
    summary:
      "Everything the Extended license allows, and the creator sells the image to no one else: it leaves the marketplace once bought.",
    terms: [
      { heading: "Grant", text: GRANT(true) },
      {
        heading: "Permitted uses",
        text: `As the Extended license: websites, social media, advertising, marketing material, presentations, packaging, editorial use and products, with no cap on the number of copies. ${MERCHANDISE_ALLOWED} ${EDITING}`,
      },
      { heading: "Not permitted", text: NEVER },
      {
        heading: "Exclusivity",
        text: `From this sale on, the creator sells the image to no one else: it is withdrawn from ${PRODUCT_NAME}'s marketplace and from the platforms it was published to, and it cannot be listed again. Licenses sold before this one stay valid, so earlier buyers may go on using the image under their own terms.`,
      },
      AI_CONTENT,
      {
        heading: "Ownership",
        text: "The creator keeps the copyright. This license is for the licensee only and ends if its terms are broken.",
      },
      NO_WARRANTY,
    ],
  },
  // The single licence sold before the tiers (until migration 0062), word for word: it allowed merchandise.
  original: {
    name: LICENSE_NAME,
    tier: "Standard",
    summary:
      "Personal and commercial use, merchandise included; not for resale as a file (the terms this image was sold with).",
    terms: [
      { heading: "Grant", text: GRANT(false) },
      {
        heading: "Permitted uses",
        text: "Websites, social media, advertising, marketing material, presentations, packaging, printed products and merchandise, editorial use, and as part of a larger design or derivative work. You may crop, resize, recolour and otherwise edit the image.",
      },
      {
        heading: "Not permitted",
        text: "Reselling, sublicensing or giving away the image on its own or as a file others can extract (including stock, template and wallpaper sites); using it in a trademark or logo; using it to train or fine-tune machine-learning models; or using it in a way that is defamatory, deceptive or unlawful, or that suggests the person shown endorses a product or view.",
      },
      AI_CONTENT,
      SHARED_OWNERSHIP,
      NO_WARRANTY,
    ],
  },
};

/** The Standard licence's terms (the public /license page). */
export const LICENSE_TERMS = LICENSES.standard.terms;
