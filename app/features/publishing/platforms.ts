import { PRODUCT_NAME } from "~/lib/product";
import { CREATOR_SHARE_PERCENT } from "~/features/payouts/types";

/**
 * The one platform registry (fees, connection kinds and fields). The
 * /integrations screen, the launch form, the list-for-sale dialog, the JSON
 * API and the connectors all read it.
 *
 * `capability` is what the product can honestly do on a platform:
 * - liveListing: it creates the listing itself and reports `live` only once the
 *   listing is reachable (the own marketplace; Shopify once its API confirms);
 * - mintKit: NFT platforms need the creator's own wallet to mint or sign, so the
 *   product prepares ERC-721 metadata and the image for the creator to mint
 *   (`ready_to_mint`); it never holds private keys;
 * - exportPackage: stock and photo platforms have no upload API for
 *   contributors, so the product prepares the full-resolution JPEG with its
 *   metadata embedded, plus a metadata CSV, to upload there (`export_ready`);
 * - sftpSubmission: stock agencies that take contributors' files over SFTP
 *   (Adobe Stock): the product uploads a file that meets the agency's rules
 *   with its title and keywords embedded, and reports `submitted`, never
 *   `live`, since the agency reviews every file before it sells.
 */

export const PLATFORM_IDS = [
  "marketplace",
  "opensea",
  "zora",
  "foundation",
  "foap",
  "eyeem",
  "clickasnap",
  "rarible",
  "mintable",
  "shopify",
  "adobestock",
] as const;

export type PlatformId = (typeof PLATFORM_IDS)[number];
export type ExternalPlatformId = Exclude<PlatformId, "marketplace">;

/** How a creator connects: OAuth popup, a key typed into the manual setup form, or nothing at all. */
export type ConnectMethod = "oauth" | "apiKey" | "none";
export type Capability = "liveListing" | "mintKit" | "exportPackage" | "sftpSubmission";
/** `apiKey` is the secret a platform takes: an API key, an Admin API token, or an SFTP password. */
export type ManualField = "apiKey" | "walletAddress" | "shopDomain" | "username";

export interface Platform {
  id: PlatformId;
  name: string;
  /** A short emoji, so token clients can show something too; screens draw a badge in `color`. */
  icon: string;
  color: string;
  kind: "Marketplace" | "NFT" | "Stock photo" | "E-commerce";
  /** The fee text the card shows. */
  fee: string;
  needsWallet: boolean;
  connect: ConnectMethod;
  /** The fields of the manual setup form, in order (empty when there is none). */
  manualFields: readonly ManualField[];
  capability: Capability;
  /** One sentence: what the product does on this platform. */
  does: string;
  /** Set when the platform no longer takes listings: the card says so and nothing can be sent there. */
  closed?: string;
  /** Something the creator should know before using the platform. */
  notice?: string;
  website: string;
}

const STOCK_NOTICE =
  "Check the platform's contributor rules on AI-generated images before you upload.";

export const PLATFORMS: readonly Platform[] = [
  {
    id: "marketplace",
    name: PRODUCT_NAME,
    icon: "🛍️",
    color: "#7c3aed",
    kind: "Marketplace",
    // The ledger's split, so every screen states the fee the platform really takes.
    fee: `${100 - CREATOR_SHARE_PERCENT}%`,
    needsWallet: false,
    connect: "none",
    manualFields: [],
    capability: "liveListing",
    does: "Lists the image on the public marketplace right away.",
    website: "/marketplace",
  },
  {
    id: "opensea",
    name: "OpenSea",
    icon: "🌊",
    color: "#2081e2",
    kind: "NFT",
    fee: "2.5%",
    needsWallet: true,
    connect: "apiKey",
    manualFields: ["apiKey", "walletAddress"],
    capability: "mintKit",
    does: "Prepares a mint kit (ERC-721 metadata and the image) that you mint with your own wallet.",
    website: "https://opensea.io",
  },
  {
    id: "zora",
    name: "Zora",
    icon: "🔮",
    color: "#111827",
    kind: "NFT",
    fee: "Fees set by Zora",
    needsWallet: true,
    connect: "apiKey",
    manualFields: ["apiKey", "walletAddress"],
    capability: "mintKit",
    does: "Would prepare a mint kit for Zora.",
    closed:
      "Zora stopped minting NFTs in April 2025 (posts there now become coins), so it no longer takes these listings.",
    website: "https://zora.co",
  },
  {
    id: "foundation",
    name: "Foundation",
    icon: "🏛️",
    color: "#000000",
    kind: "NFT",
    fee: "15%",
    needsWallet: true,
    connect: "apiKey",
    manualFields: ["apiKey", "walletAddress"],
    capability: "mintKit",
    does: "Would prepare a mint kit for Foundation.",
    closed: "Foundation shut its marketplace down in April 2026 and no longer takes listings.",
    website: "https://foundation.app",
  },
  {
    id: "foap",
    name: "Foap",
    icon: "📸",
    color: "#ff4f5a",
    kind: "Stock photo",
    fee: "50%",
    needsWallet: false,
    connect: "none",
    manualFields: [],
    capability: "exportPackage",
    does: "Prepares an export package (full-resolution JPEG with embedded metadata, plus a CSV) to upload to Foap.",
    notice: STOCK_NOTICE,
    website: "https://www.foap.com",
  },
  {
    id: "eyeem",
    name: "EyeEm",
    icon: "👁️",
    color: "#222222",
    kind: "Stock photo",
    fee: "50%",
    needsWallet: false,
    connect: "none",
    manualFields: [],
    capability: "exportPackage",
    does: "Prepares an export package (full-resolution JPEG with embedded metadata, plus a CSV) to upload to EyeEm.",
    notice: STOCK_NOTICE,
    website: "https://www.eyeem.com",
  },
  {
    id: "clickasnap",
    name: "ClickASnap",
    icon: "🖼️",
    color: "#00a19a",
    kind: "Stock photo",
    fee: "15-40%",
    needsWallet: false,
    connect: "none",
    manualFields: [],
    capability: "exportPackage",
    does: "Prepares an export package (full-resolution JPEG with embedded metadata, plus a CSV) to upload to ClickASnap.",
    notice: STOCK_NOTICE,
    website: "https://www.clickasnap.com",
  },
  {
    id: "rarible",
    name: "Rarible",
    icon: "🟡",
    color: "#feda03",
    kind: "NFT",
    fee: "Fees set by Rarible",
    needsWallet: true,
    connect: "apiKey",
    manualFields: ["apiKey", "walletAddress"],
    capability: "mintKit",
    does: "Prepares a mint kit (ERC-721 metadata and the image) that you mint with your own wallet.",
    website: "https://rarible.com",
  },
  {
    id: "mintable",
    name: "Mintable",
    icon: "🌱",
    color: "#1a73e8",
    kind: "NFT",
    fee: "Fees set by Mintable",
    needsWallet: true,
    connect: "apiKey",
    manualFields: ["apiKey", "walletAddress"],
    capability: "mintKit",
    does: "Prepares a mint kit (ERC-721 metadata and the image) that you mint with your own wallet.",
    website: "https://mintable.com",
  },
  {
    id: "shopify",
    name: "Shopify",
    icon: "🛒",
    color: "#95bf47",
    kind: "E-commerce",
    fee: "Fees set by Shopify (your plan)",
    needsWallet: false,
    connect: "oauth",
    manualFields: ["shopDomain", "apiKey"],
    capability: "liveListing",
    does: "Creates the product with its image and price in your store and links to it once Shopify confirms it is live.",
    website: "https://www.shopify.com",
  },
  {
    id: "adobestock",
    name: "Adobe Stock",
    icon: "🅰️",
    color: "#eb1000",
    kind: "Stock photo",
    fee: "33% royalty to you",
    needsWallet: false,
    connect: "apiKey",
    manualFields: ["username", "apiKey"],
    capability: "sftpSubmission",
    does: "Uploads the styled image as a JPEG of 4 MP or more, at the size the style engine made it (never enlarged), with its title, keywords and IPTC digital source type embedded, to your contributor account over SFTP, for Adobe to review. Each image needs a signed model release first.",
    notice:
      'SFTP upload is for qualified contributor accounts. Adobe reviews each file; in its contributor portal, attach the image\'s model release and tick "Created using generative AI tools" for images a generative model made (the fal.ai styles) before you submit.',
    website: "https://contributor.stock.adobe.com",
  },
];

export const MARKETPLACE_ID = "marketplace" satisfies PlatformId;

export function isPlatformId(value: unknown): value is PlatformId {
  return typeof value === "string" && (PLATFORM_IDS as readonly string[]).includes(value);
}

export function getPlatform(id: PlatformId): Platform {
  return PLATFORMS.find((platform) => platform.id === id)!;
}

export function findPlatform(id: string): Platform | undefined {
  return PLATFORMS.find((platform) => platform.id === id);
}

/** Platforms that take listings (the own marketplace first). */
export function openPlatforms(): Platform[] {
  return PLATFORMS.filter((platform) => !platform.closed);
}

/**
 * The nine external platforms the product spec names, in the order the landing
 * shows them. The landing, /pricing, /help and /integrations all name these
 * from this registry, each with platformState (Zora and Foundation closed).
 */
export const SPEC_PLATFORM_IDS = [
  "opensea",
  "zora",
  "foundation",
  "foap",
  "eyeem",
  "clickasnap",
  "rarible",
  "mintable",
  "shopify",
] as const satisfies readonly ExternalPlatformId[];

export function specPlatforms(): Platform[] {
  return SPEC_PLATFORM_IDS.map(getPlatform);
}

/** A platform's real state as every page names it: closed, or what the product does there. */
export function platformState(platform: Platform): string {
  return platform.closed ? "No longer takes listings" : CAPABILITY_LABELS[platform.capability];
}

/** Whether a creator must connect before publishing there. */
export function needsConnection(platform: Platform): boolean {
  return platform.connect !== "none";
}

/** EVM account address (the walletAddress NFT platforms need). */
export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export const MANUAL_FIELD_LABELS: Record<ManualField, string> = {
  apiKey: "API key",
  walletAddress: "Wallet address",
  shopDomain: "Shop domain",
  username: "Username",
};

/** Field labels of one platform's manual setup form (Shopify's key is its Admin API access token). */
export function manualFieldLabel(platform: Platform, field: ManualField): string {
  if (platform.id === "shopify" && field === "apiKey") return "Admin API access token";
  if (platform.capability === "sftpSubmission")
    return field === "apiKey" ? "SFTP password" : "SFTP username";
  return MANUAL_FIELD_LABELS[field];
}

/**
 * Shopify's manual setup takes a token of a custom app made in the store's
 * admin, which Shopify no longer lets anyone create since 1 January 2026
 * (those made before keep working): said beside the form.
 */
export const SHOPIFY_CUSTOM_APP_NOTE =
  "Since 1 January 2026 Shopify no longer lets stores create custom apps in their admin, so this works only with the Admin API access token of a custom app your store made before then. Otherwise connect with Shopify above.";

/** The same, where this server has no Shopify app to connect with. */
export const SHOPIFY_CUSTOM_APP_ONLY_NOTE =
  "Connecting by OAuth is not set up on this server, so only a custom app's Admin API access token works below. Since 1 January 2026 Shopify no longer lets stores create custom apps in their admin: a store without one made before then cannot connect here until the server's operator sets up the Shopify app.";

export const CAPABILITY_LABELS: Record<Capability, string> = {
  liveListing: "Live listing",
  mintKit: "Mint kit",
  exportPackage: "Export package",
  sftpSubmission: "Submission over SFTP",
};

/** A platform as the publishing forms offer it. */
export interface PlatformOption {
  id: PlatformId;
  name: string;
  /** Whether the creator can publish there now (always for the own marketplace). */
  connected: boolean;
  /** Set when the platform no longer takes listings. */
  closed?: boolean;
}

/** A list of platform states with each platform's display name in place of its id. */
export function withPlatformNames<T extends { platform: PlatformId }>(
  list: readonly T[],
): (Omit<T, "platform"> & { platform: string })[] {
  return list.map((item) => ({ ...item, platform: getPlatform(item.platform).name }));
}
