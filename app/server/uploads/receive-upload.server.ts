import fsp from "node:fs/promises";
import { badRequest, HttpError, payloadTooLarge } from "../errors.server";
import { MultipartError, MultipartParser, multipartBoundary } from "./multipart-parser.server";

/**
 * Receives one file from a multipart/form-data request body straight onto the
 * data volume, under a hard byte limit. The body is read chunk by chunk and each
 * chunk is written out before the next is read, so memory stays flat whatever
 * the client sends. See docs/decisions (studio uploads) for why this is our own
 * parser rather than Remix's unstable_parseMultipartFormData.
 */

export interface ReceivedFile {
  /** A scratch file on the data volume; the caller moves or removes it. */
  path: string;
  bytes: number;
  /** The client's file name and declared type: informational only, never trusted. */
  filename: string | null;
  declaredType: string | null;
}

export interface ReceiveOptions {
  /** The form field that carries the file. The first such part is used; later ones are ignored. */
  field: string;
  maxFileBytes: number;
  /** Where to write the file (a fresh path on the same volume as its final place). */
  scratchPath: () => Promise<string>;
  messages: { tooLarge: string; missing: string; notMultipart: string };
  /** Bytes allowed on top of the file for boundaries, headers and small fields (default 64 KiB). */
  overheadBytes?: number;
  /** After refusing a body, read and throw away at most this much more of it (default 32 MiB). */
  drainBytes?: number;
  /** Runs before a byte of the body is read (e.g. quotas); when it throws, the body is drained and the error passes on. */
  admit?: () => Promise<void>;
}

const DEFAULT_OVERHEAD = 64 * 1024;
const DEFAULT_DRAIN = 32 * 1024 * 1024;

/** What an upload reads of a request: its headers and its body stream (a Request is one). */
export interface UploadBody {
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
}

export async function receiveFileUpload(request: UploadBody, options: ReceiveOptions): Promise<ReceivedFile> {
  const overhead = options.overheadBytes ?? DEFAULT_OVERHEAD;
  const maxBodyBytes = options.maxFileBytes + overhead;
  if (options.admit) {
    try {
      await options.admit();
    } catch (error) {
      discardBody(request.body, options.drainBytes ?? DEFAULT_DRAIN);
      throw error;
    }
  }
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  if (!boundary) {
    discardBody(request.body, options.drainBytes ?? DEFAULT_DRAIN);
    throw badRequest(options.messages.notMultipart);
  }
  // A declared length past the limit is refused before a byte is read.
  const declared = Number(request.headers.get("Content-Length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBodyBytes) {
    discardBody(request.body, options.drainBytes ?? DEFAULT_DRAIN);
    throw payloadTooLarge(options.messages.tooLarge);
  }
  if (!request.body) throw badRequest(options.messages.missing);

  const reader = request.body.getReader();
  const parser = new MultipartParser(boundary);
  let file: { path: string; handle: fsp.FileHandle; bytes: number; filename: string | null; declaredType: string | null } | null =
    null;
  let fileDone = false;
  let inFilePart = false;
  let bodyBytes = 0;
  let succeeded = false;

  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bodyBytes += value.byteLength;
      if (bodyBytes > maxBodyBytes) throw payloadTooLarge(options.messages.tooLarge);
      if (parser.finished) continue; // epilogue: ignored, but still counted against the limit
      let events;
      try {
        events = parser.write(value);
      } catch (error) {
        if (error instanceof MultipartError) throw badRequest(error.message);
        throw error;
      }
      for (const event of events) {
        if (event.type === "part-start") {
          inFilePart = !fileDone && event.headers.name === options.field;
          if (inFilePart) {
            const path = await options.scratchPath();
            const handle = await fsp.open(path, "wx", 0o600);
            file = { path, handle, bytes: 0, filename: event.headers.filename, declaredType: event.headers.contentType };
          }
        } else if (event.type === "part-data") {
          if (!inFilePart || !file) continue;
          file.bytes += event.data.byteLength;
          if (file.bytes > options.maxFileBytes) throw payloadTooLarge(options.messages.tooLarge);
          await file.handle.write(event.data);
        } else if (inFilePart) {
          inFilePart = false;
          fileDone = true;
        }
      }
    }
    try {
      parser.end();
    } catch (error) {
      if (error instanceof MultipartError) throw badRequest(error.message);
      throw error;
    }
    // A form submitted without choosing a file sends an empty part: that is a missing file too.
    if (!file || file.bytes === 0) throw badRequest(options.messages.missing);
    await file.handle.close();
    succeeded = true;
    return { path: file.path, bytes: file.bytes, filename: file.filename, declaredType: file.declaredType };
  } catch (error) {
    if (!succeeded) {
      // Read no further than needed: answer now, and let the rest of a refused body drain in the background.
      if (error instanceof HttpError) discardReader(reader, options.drainBytes ?? DEFAULT_DRAIN);
      else reader.cancel().catch(() => {});
    }
    throw error;
  } finally {
    if (file && !succeeded) {
      await file.handle.close().catch(() => {});
      await fsp.rm(file.path, { force: true });
    }
  }
}

/**
 * Throws away what is left of a refused body, up to a cap, without keeping it.
 * A browser or HTTP client that is still sending would otherwise see its
 * connection reset before it reads our answer; past the cap the connection is cut.
 */
function discardBody(body: ReadableStream<Uint8Array> | null, maxBytes: number) {
  if (!body || body.locked) return;
  discardReader(body.getReader(), maxBytes);
}

function discardReader(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number) {
  void (async () => {
    let seen = 0;
    try {
      while (seen <= maxBytes) {
        const { done, value } = await reader.read();
        if (done) return;
        seen += value.byteLength;
      }
      await reader.cancel();
    } catch {
      // The client went away: nothing left to drain.
    }
  })();
}
