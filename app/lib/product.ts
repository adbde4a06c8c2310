/** The product's name and the copy the spec fixes (spec section 1). */
export const PRODUCT_NAME = "Selfie Studio";
export const TAGLINE = "Transform your selfies into AI art and earn money";
