import type { LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { getFileStore, isValidFileKey } from "~/infra/file-store.server";
import { jsonResponse } from "~/web/http.server";
import { PUBLIC_AREAS, verifyMediaRequest } from "~/infra/signed-urls.server";

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
export async function loader({ request, params }: LoaderFunctionArgs) {
  const key = params["*"] ?? "";
  if (!isValidFileKey(key) || key.startsWith("tmp/")) return jsonResponse({ message: "Not found" }, { status: 404 });
  const url = new URL(request.url);
  if (!verifyMediaRequest(key, url)) {
    return jsonResponse({ message: "This link is invalid or has expired" }, { status: 403 });
  }
  const store = getFileStore();
  if (!(await store.exists(key))) return jsonResponse({ message: "Not found" }, { status: 404 });
  const extension = key.slice(key.lastIndexOf(".") + 1);
  const isPublic = PUBLIC_AREAS.some((area) => key.startsWith(area));
  return new Response(createReadableStreamFromReadable(store.stream(key)), {
    headers: {
      "Content-Type": TYPES[extension] ?? "application/octet-stream",
      "Content-Length": String(await store.size(key)),
      "Cache-Control": isPublic ? "public, max-age=86400" : "private, max-age=3600",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cross-Origin-Resource-Policy": isPublic ? "cross-origin" : "same-origin",
    },
  });
}
