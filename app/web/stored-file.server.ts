import { createReadableStreamFromReadable } from "@remix-run/node";
import { getFileStore } from "~/infra/file-store.server";

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
