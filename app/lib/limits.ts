/** The most distinct images one cart (and one order) may hold. */
export const MAX_CART_ITEMS = 50;

/** The most listings a browser keeps saved (in its signed cookie, decision 090). */
export const MAX_SAVED_LISTINGS = 100;
/** What a save past MAX_SAVED_LISTINGS answers; the saved list stays as it was. */
export const SAVED_LISTINGS_FULL = {
  title: "Saved listings full",
  description: `You can save at most ${MAX_SAVED_LISTINGS} listings. Remove one from your saved listings to save another.`,
};

/** Upload limits and their messages, the same for the screens and the API. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const FILE_TOO_LARGE = {
  title: "File Too Large",
  description: "Please select a file smaller than 10MB.",
};
export const INVALID_FILE_TYPE = {
  title: "Invalid File Type",
  description: "Please select a valid image file (JPG or PNG).",
};
/** The multipart field every image upload (a selfie, a profile photo) arrives in, and the upload's refusals. */
export const UPLOAD_FIELD = "image";
/** Most selfies one upload takes (each checked and stored on its own). */
export const MAX_UPLOAD_FILES = 10;
export const UPLOAD_MESSAGES = {
  tooLarge: FILE_TOO_LARGE.description,
  missing: `Choose an image to upload (a file in the form field named "${UPLOAD_FIELD}").`,
  notMultipart: `Send the image as multipart/form-data, in a form field named "${UPLOAD_FIELD}".`,
  tooMany: `Please select at most ${MAX_UPLOAD_FILES} images at once.`,
};
/** A JPG or PNG whose bytes stop short or are corrupt: the type is right, the file is not. */
export const DAMAGED_IMAGE = {
  title: "Damaged Image",
  description:
    "This image is damaged or incomplete and cannot be read. Please select another copy of it.",
};

/**
 * Marketplace search (?q= on /marketplace and /api/marketplace). A search
 * walks at most SEARCH_MATCH_CAP matches, the newest listed first: one that
 * matches more shows, over its pages, only those.
 */
export const SEARCH_MATCH_CAP = 500;
/** The shortest search the index can answer: it matches runs of three characters. */
export const SEARCH_INDEXED_MIN_CHARS = 3;
/** A shorter search (one or two characters) looks through only this many of the newest listings. */
export const SHORT_SEARCH_WINDOW = 2_000;
