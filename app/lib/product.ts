/** The product's name and its fixed marketing copy. */
export const PRODUCT_NAME = "Selfie Studio";
export const TAGLINE = "Transform your selfies into AI art and earn money";
