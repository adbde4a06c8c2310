/**
 * The nine external marketplaces the landing page advertises, in the order it
 * shows them. Only names for the landing strip: the publishing
 * work keeps the full platform registry (fees, OAuth, connection fields).
 */
export interface ExternalMarketplace {
  id:
    | "opensea"
    | "zora"
    | "foundation"
    | "foap"
    | "eyeem"
    | "clickasnap"
    | "rarible"
    | "mintable"
    | "shopify";
  name: string;
  kind: "NFT" | "Stock photo" | "E-commerce";
}

export const EXTERNAL_MARKETPLACES: readonly ExternalMarketplace[] = [
  { id: "opensea", name: "OpenSea", kind: "NFT" },
  { id: "zora", name: "Zora", kind: "NFT" },
  { id: "foundation", name: "Foundation", kind: "NFT" },
  { id: "foap", name: "Foap", kind: "Stock photo" },
  { id: "eyeem", name: "EyeEm", kind: "Stock photo" },
  { id: "clickasnap", name: "ClickASnap", kind: "Stock photo" },
  { id: "rarible", name: "Rarible", kind: "NFT" },
  { id: "mintable", name: "Mintable", kind: "NFT" },
  { id: "shopify", name: "Shopify", kind: "E-commerce" },
];
