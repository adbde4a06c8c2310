import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from "express";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import {
  createReadableStreamFromReadable,
  createRequestHandler,
  writeReadableStreamToWritable,
} from "@remix-run/node";
import { FILE_TOO_LARGE } from "~/lib/limits";
import { payloadTooLarge } from "~/infra/errors.server";
import type { BodyLimit, BodyLimitFor } from "./body-limits.server";
import { hasBody } from "./body-limits.server";
import { settleUnreadBody } from "./unread-body.server";
import { answerForOutage } from "./database-outage.server";

/** Answers one request the way Remix does; tests hand in their own. */
export type HandleRequest = (request: Request, loadContext: AppLoadContext) => Promise<Response>;

export function remixRequestHandler(build: ServerBuild, mode: string): HandleRequest {
  return createRequestHandler(build, mode);
}

/**
 * The bridge from Express to Remix. Unlike the stock adapter, the body the
 * route sees is one we control: a form or JSON body arrives read in full (the
 * body guard in front read it within its limit), an upload arrives as a
 * counted stream. When the route answers before the upload has been read, the
 * rest of it is drained or the connection closed cleanly (unread-body.server.ts).
 */
export function remixBridge(
  handle: HandleRequest,
  loadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext,
  bodyLimitFor: BodyLimitFor,
) {
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const limit = bodyLimitFor(req.path, req.get("Content-Type"));
      // The guard read a form or JSON body in full; an upload is streamed, counted (never both).
      const counted = limit.streamed && hasBody(req) ? countedBody(req, limit) : undefined;
      const controller = new AbortController();
      let finished = false;
      res.on("finish", () => (finished = true));
      res.on("close", () => {
        if (!finished) controller.abort();
      });
      const request = toFetchRequest(req, readBodyOf(res) ?? counted, controller.signal);
      const context = loadContext(req, res);
      const answered = await handle(request, context);
      // A loader or action that failed on an unreachable database: 503 with Retry-After, not the 500 page.
      const response = answerForOutage(context, request.url, answered) ?? answered;
      if (res.headersSent) return;
      if (counted) {
        // What is left of the upload is the edge's to drain (or the connection's to close), not the route's.
        settleUnreadBody(req, res, limit.bytes);
        counted.destroy();
      }
      await send(res, response);
    } catch (error) {
      next(error);
    }
  };
}

/** The body the guard already read in full, when it did. */
function readBodyOf(res: ExpressResponse): Buffer | undefined {
  return res.locals.body as Buffer | undefined;
}

/** The upload stream as the route reads it: the request's bytes, failing with a 413 past the limit. */
function countedBody(req: ExpressRequest, limit: BodyLimit) {
  let seen = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.byteLength;
      if (seen > limit.bytes) callback(payloadTooLarge(FILE_TOO_LARGE.description));
      else callback(null, chunk);
    },
  });
  req.on("error", (error) => stream.destroy(error));
  req.pipe(stream);
  return stream;
}

function toFetchRequest(
  req: ExpressRequest,
  body: Buffer | Readable | undefined,
  signal: AbortSignal,
): Request {
  const url = requestUrl(req);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal };
  if (req.method !== "GET" && req.method !== "HEAD" && body !== undefined) {
    // A Buffer is a Uint8Array: a valid fetch body, though the DOM and Node typings disagree on its buffer type.
    init.body = (Buffer.isBuffer(body) ? body : createReadableStreamFromReadable(body)) as BodyInit;
    if (!Buffer.isBuffer(body)) init.duplex = "half";
  }
  return new Request(url.href, init);
}

async function send(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

/** The address the client asked for, as Remix sees it: scheme, host (requestHost) and the path with its query. */
export function requestUrl(req: ExpressRequest): URL {
  return new URL(`${req.protocol}://${requestHost(req)}${req.originalUrl}`);
}

/**
 * The host and port the client addressed. X-Forwarded-Host is believed, as
 * Express's req.hostname believes it, only from a proxy TRUST_PROXY trusts;
 * otherwise the Host header alone says it. The port comes from the same header
 * as the name (a client's X-Forwarded-Host never lends its port to the Host).
 */
export function requestHost(req: ExpressRequest): string {
  const forwarded = req.get("X-Forwarded-Host");
  const trusted = Boolean(forwarded) && trustsPeer(req);
  const source = trusted ? forwarded!.split(",")[0]!.trim() : (req.get("Host") ?? "");
  const port = portOf(source);
  return `${req.hostname ?? "localhost"}${port === null ? "" : `:${port}`}`;
}

/** Whether the socket's peer is a proxy TRUST_PROXY trusts (Express's compiled `trust proxy` setting). */
function trustsPeer(req: ExpressRequest): boolean {
  const trust = req.app.get("trust proxy fn") as
    ((address: string | undefined, hop: number) => boolean) | undefined;
  return trust ? trust(req.socket.remoteAddress, 0) : false;
}

/** The port of a `host[:port]` value (`[v6]:port` too), or null when it names none. */
function portOf(host: string): number | null {
  const afterName = host.startsWith("[")
    ? host.slice(host.indexOf("]") + 1)
    : host.slice(Math.max(0, host.indexOf(":")));
  const match = /^:(\d{1,5})$/.exec(afterName);
  const port = match ? Number(match[1]) : NaN;
  return port >= 1 && port <= 65_535 ? port : null;
}
