/** The media types of the files we store, by their key's extension, for both stores alike. */
const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  avif: "image/avif",
  json: "application/json",
  zip: "application/zip",
  pdf: "application/pdf",
};

/** The Content-Type a stored file is served and uploaded with: by its key's extension, else bytes. */
export function contentTypeOfKey(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}
