import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { declaredLength } from "./body-limits.server";

/**
 * What to do with the part of a request body nobody read, when the answer
 * goes out first (a 401 or 403 before an upload is read, a 413, a 415).
 *
 * Left alone, those bytes sit on the connection: the client, still sending,
 * or sending its next request on the same kept-alive connection, meets a
 * connection reset. So:
 *
 * - A body of declared length within the route's limit is read to its end and
 *   thrown away; the connection stays open for the client's next request.
 * - Anything else (a body past the limit, or of unknown length) is answered
 *   with `Connection: close`; we keep reading and throwing away what is still
 *   in flight for a short while after the answer ("lingering close"), so the
 *   client reads our answer instead of a reset, then close.
 */

/** How long, and how much, we keep reading after an answer that closes the connection. */
export const LINGER_MS = 5_000;
export const LINGER_BYTES = 32 * 1024 * 1024;

export function settleUnreadBody(req: IncomingMessage, res: ServerResponse, limit: number): void {
  if (req.complete || req.destroyed) return;
  const declared = declaredLength(req);
  if (declared !== undefined && declared <= limit) {
    discard(req, Number.POSITIVE_INFINITY);
    return;
  }
  closeAfterAnswer(req, res);
}

/** Answers with `Connection: close`, reading what still arrives for a moment so the client sees the answer. */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (!res.headersSent) res.setHeader("Connection", "close");
  const socket = req.socket;
  discard(req, LINGER_BYTES, () => socket.destroy());
  lingerOnClose(socket);
}

/** Reads the rest of the body and throws it away; past `maxBytes`, calls `tooMuch`. */
function discard(req: IncomingMessage, maxBytes: number, tooMuch?: () => void) {
  let seen = 0;
  req.removeAllListeners("data");
  req.unpipe();
  req.on("data", (chunk: Buffer) => {
    seen += chunk.byteLength;
    if (seen > maxBytes) tooMuch?.();
  });
  req.on("error", () => {});
  req.resume();
}

/**
 * Node closes a `Connection: close` socket as soon as the answer is written;
 * with the client's bytes still arriving, the kernel then answers them with a
 * reset, which can reach the client before it has read our answer. Instead we
 * half-close (the client reads the answer and an end of stream) and close once
 * the client does, or after LINGER_MS.
 */
function lingerOnClose(socket: Socket & { destroySoon?: () => void }) {
  if (typeof socket.destroySoon !== "function") return;
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("end", () => socket.destroy());
    socket.once("close", () => clearTimeout(timer));
  };
}
