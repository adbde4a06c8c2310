import { getFileStore, isValidFileKey } from "~/infra/file-store.server";
import { PUBLIC_AREAS, verifyMediaRequest } from "~/infra/signed-urls.server";
import { jsonResponse } from "~/web/http.server";
import { storedFileResponse } from "~/web/stored-file.server";

const TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  json: "application/json",
  zip: "application/zip",
};

/**
 * Serves stored files: public previews, or private files through a signed,
 * expiring URL. A private file is `Cross-Origin-Resource-Policy: same-origin`,
 * so another site cannot load it even with a leaked link; the public
 * watermarked previews stay `cross-origin`, embeddable anywhere.
 */
export async function mediaResponse(request: Request, key: string): Promise<Response> {
  if (!isValidFileKey(key) || key.startsWith("tmp/")) return jsonResponse({ message: "Not found" }, { status: 404 });
  const url = new URL(request.url);
  if (!verifyMediaRequest(key, url)) {
    return jsonResponse({ message: "This link is invalid or has expired" }, { status: 403 });
  }
  if (!(await getFileStore().exists(key))) return jsonResponse({ message: "Not found" }, { status: 404 });
  const extension = key.slice(key.lastIndexOf(".") + 1);
  const isPublic = PUBLIC_AREAS.some((area) => key.startsWith(area));
  return storedFileResponse(key, {
    "Content-Type": TYPES[extension] ?? "application/octet-stream",
    "Cache-Control": isPublic ? "public, max-age=86400" : "private, max-age=3600",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cross-Origin-Resource-Policy": isPublic ? "cross-origin" : "same-origin",
  });
}
