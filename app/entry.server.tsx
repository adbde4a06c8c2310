import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/ui/nonce";
import { applyDocumentCacheControl } from "~/web/document-cache.server";
import { documentStream } from "~/web/document-stream.server";
import { noteDatabaseOutage } from "~/web/database-outage.server";
import { databaseUnavailableLine } from "~/infra/database-errors.server";

export { boot, shutdown } from "~/boot/boot.server";
export { routeConsoleThroughLogger } from "~/infra/logger.server";
export { applyServerTimeouts } from "./web/http-app.server";
export { createSiteApp } from "~/boot/site-app.server";
export { databaseUnavailableLine, isDatabaseUnavailable } from "~/infra/database-errors.server";

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.nonce ?? "";
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer
          context={remixContext}
          url={request.url}
          abortDelay={ABORT_DELAY}
          nonce={nonce}
        />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          // Low priority for the scripts, no stray NUL bytes (document-stream.server.ts).
          const body = documentStream();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          applyDocumentCacheControl(request, responseHeaders);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

/** Remix data requests (client navigations) get the same caching rule as the documents. */
export function handleDataRequest(response: Response, { request }: { request: Request }) {
  applyDocumentCacheControl(request, response.headers);
  return response;
}

export function handleError(
  error: unknown,
  { request, context }: { request: Request; context?: AppLoadContext },
) {
  if (request.signal.aborted) return;
  // A path no route matches (one holding a line break, say) is the 404 page, not a failure: no stack.
  if (isRouteErrorResponse(error) && error.status === 404) return;
  // An unreachable database is an outage, not a bug: one line, and the answer becomes a 503 (database-outage.server.ts).
  if (noteDatabaseOutage(context, error)) {
    console.warn(
      `${request.method} ${new URL(request.url).pathname}: ${databaseUnavailableLine(error)}`,
    );
    return;
  }
  console.error(error);
}
