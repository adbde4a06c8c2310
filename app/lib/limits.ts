/** The most distinct images one cart (and one order) may hold. */
export const MAX_CART_ITEMS = 50;

/** Upload limits and their messages, the same for the screens and the API. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const FILE_TOO_LARGE = { title: "File Too Large", description: "Please select a file smaller than 10MB." };
export const INVALID_FILE_TYPE = {
  title: "Invalid File Type",
  description: "Please select a valid image file (JPG or PNG).",
};
