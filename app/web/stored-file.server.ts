import { createReadableStreamFromReadable } from "@remix-run/node";
import { getFileStore, getObjectStore } from "~/infra/file-store.server";

/** How long a purchased download's presigned URL stays valid. */
export const DOWNLOAD_URL_SECONDS = 60;

/**
 * A purchased download from object storage: a redirect to a presigned URL
 * valid a minute, which the store answers as an attachment under the file's name.
 * Null with the local store (the bytes are streamed from here). A file whose
 * removal is recorded is not found (its owner's erasure took it).
 */
export async function presignedDownloadRedirect(
  fileKey: string,
  filename: string,
): Promise<Response | null> {
  const store = getObjectStore();
  if (!store) return null;
  if (await store.isRemoved(fileKey))
    return Response.json({ message: "Not found" }, { status: 404 });
  return new Response(null, {
    status: 302,
    headers: {
      Location: await store.presignedUrl(fileKey, DOWNLOAD_URL_SECONDS, filename),
      "Cache-Control": "private, no-store",
      "Referrer-Policy": "no-referrer",
    },
  });
}

/**
 * A stored file as a response: its bytes streamed from the file store (none for
 * a HEAD request) with its Content-Length, and the headers the caller chose.
 */
export async function storedFileResponse(
  fileKey: string,
  headers: Record<string, string>,
  { head = false }: { head?: boolean } = {},
): Promise<Response> {
  const store = getFileStore();
  return new Response(head ? null : createReadableStreamFromReadable(store.stream(fileKey)), {
    headers: { ...headers, "Content-Length": String(await store.size(fileKey)) },
  });
}
