import fsp from "node:fs/promises";
import type { Readable } from "node:stream";
import { MIMEType } from "node:util";
import busboy from "busboy";
import type { Busboy, FileInfo } from "busboy";
import { badRequest, HttpError, payloadTooLarge } from "~/infra/errors.server";

/**
 * Receives one file from a multipart/form-data request body straight onto the
 * data volume, under a hard byte limit. The body is read chunk by chunk, and no
 * more is read while the file write is behind (busboy's own buffers hold about
 * one chunk), so memory stays flat whatever the client sends. busboy parses
 * the multipart framing; the limits, the scratch file and the answers are ours
 * (docs/decisions/016-http-edge-bodies-and-client-address.md).
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
/** Most parts (file or field) in one body; the 33rd is refused. */
const MAX_PARTS = 32;

/** What an upload reads of a request: its headers and its body stream (a Request is one). */
export interface UploadBody {
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
}

interface ScratchFile extends ReceivedFile {
  handle: fsp.FileHandle;
}

export async function receiveFileUpload(
  request: UploadBody,
  options: ReceiveOptions,
): Promise<ReceivedFile> {
  const [file] = await receiveFileUploads(request, { ...options, maxFiles: 1 });
  return file!;
}

/**
 * Several files of the same field, in the order sent, each under
 * `maxFileBytes` (the body under `maxFiles` times that, plus overhead). With
 * `maxFiles` 1 a later file is ignored; otherwise one more than `maxFiles` is
 * refused (400 `messages.tooMany`) and nothing is kept. Empty parts (a form
 * sent without a file) are left out; none at all is `messages.missing`.
 */
export async function receiveFileUploads(
  request: UploadBody,
  options: ReceiveOptions & { maxFiles: number; messages: { tooMany?: string } },
): Promise<ReceivedFile[]> {
  const overhead = options.overheadBytes ?? DEFAULT_OVERHEAD;
  const maxBodyBytes = options.maxFileBytes * options.maxFiles + overhead;
  const drainBytes = options.drainBytes ?? DEFAULT_DRAIN;
  if (options.admit) {
    try {
      await options.admit();
    } catch (error) {
      discardBody(request.body, drainBytes);
      throw error;
    }
  }
  const parser = formDataParser(request.headers.get("Content-Type"), options.maxFileBytes);
  if (!parser) {
    discardBody(request.body, drainBytes);
    throw badRequest(options.messages.notMultipart);
  }
  // The first failure wins: a parse error, a limit, the file write, or the body itself.
  // (Not a long-lived promise raced against each step: every race would keep its step's
  // result, a chunk of the body, alive until the upload ends.)
  const failure = new AbortController();
  const fail = (error: unknown) => {
    if (!failure.signal.aborted) failure.abort(error);
  };
  const orFailure = <T>(step: Promise<T>) => unlessFailed(step, failure.signal);
  parser.on("error", (error: Error) => fail(badRequest(multipartMessage(error))));
  parser.on("partsLimit", () => fail(badRequest("Too many parts in the multipart body")));
  parser.on("fieldsLimit", () => fail(badRequest("Too many parts in the multipart body")));

  // Set by the 'file' handler: the kept parts' scratch files, and the writing of them (one after another, as they arrive).
  const kept: { files: ScratchFile[]; parts: number; writing: Promise<void> | null } = {
    files: [],
    parts: 0,
    writing: null,
  };
  parser.on("file", (name: string | undefined, stream: Readable, info: FileInfo) => {
    stream.on("error", () => {}); // reported through busboy's own error, or to the writer below
    if (name !== options.field || (options.maxFiles === 1 && kept.parts === 1)) {
      stream.resume(); // a later file, or another field's: read through and thrown away
      return;
    }
    kept.parts += 1;
    if (kept.parts > options.maxFiles) {
      stream.resume();
      fail(badRequest(options.messages.tooMany ?? "Too many files"));
      return;
    }
    stream.on("limit", () => fail(payloadTooLarge(options.messages.tooLarge)));
    const before = kept.writing ?? Promise.resolve();
    kept.writing = (async () => {
      await before;
      const path = await options.scratchPath();
      const handle = await fsp.open(path, "wx", 0o600);
      const file: ScratchFile = {
        path,
        handle,
        bytes: 0,
        filename: info.filename ?? null,
        declaredType: info.mimeType || null,
      };
      kept.files.push(file);
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        file.bytes += chunk.byteLength;
        if (file.bytes > options.maxFileBytes) throw payloadTooLarge(options.messages.tooLarge);
        await handle.write(chunk);
      }
    })();
    kept.writing.catch(fail);
  });

  // A declared length past the limit is refused before a byte is read.
  const declared = Number(request.headers.get("Content-Length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBodyBytes) {
    parser.destroy();
    discardBody(request.body, drainBytes);
    throw payloadTooLarge(options.messages.tooLarge);
  }
  if (!request.body) {
    parser.destroy();
    throw badRequest(options.messages.missing);
  }

  const reader = request.body.getReader();
  let bodyBytes = 0;
  let succeeded = false;

  try {
    for (;;) {
      const { done, value } = await orFailure(reader.read());
      if (done) break;
      bodyBytes += value.byteLength;
      if (bodyBytes > maxBodyBytes) throw payloadTooLarge(options.messages.tooLarge);
      // The next chunk is read only once busboy has taken this one, which it does only once the
      // file stream has room, which it has only once the writer has taken what was there.
      // The epilogue after the closing boundary is ignored by busboy but still counted above.
      await orFailure(writeChunk(parser, value));
    }
    const finished = new Promise<void>((resolve) => parser.once("finish", resolve));
    parser.end();
    await orFailure(finished);
    await orFailure(kept.writing ?? Promise.resolve());
    for (const file of kept.files) await file.handle.close();
    // A form submitted without choosing a file sends an empty part: that is a missing file too.
    const empty = kept.files.filter((file) => file.bytes === 0);
    const files = kept.files.filter((file) => file.bytes > 0);
    if (files.length === 0) throw badRequest(options.messages.missing);
    for (const file of empty) await fsp.rm(file.path, { force: true });
    succeeded = true;
    return files.map((file) => ({
      path: file.path,
      bytes: file.bytes,
      filename: file.filename,
      declaredType: file.declaredType,
    }));
  } catch (error) {
    // Stops busboy and ends the file stream, so the writer settles.
    parser.destroy();
    if (!succeeded) {
      // Read no further than needed: answer now, and let the rest of a refused body drain in the background.
      if (error instanceof HttpError) discardReader(reader, drainBytes);
      else reader.cancel().catch(() => {});
    }
    throw error;
  } finally {
    if (!succeeded) {
      await kept.writing?.catch(() => {});
      for (const file of kept.files) {
        await file.handle.close().catch(() => {});
        await fsp.rm(file.path, { force: true });
      }
    }
  }
}

/**
 * busboy for a multipart/form-data body whose boundary is 1 to 70 characters
 * (RFC 2046), or null for any other body. Its limits are busboy's, which signals
 * when a count reaches its limit: 'limit' on the file stream at maxFileBytes + 1
 * bytes, 'partsLimit' at MAX_PARTS + 1 parts and 'fieldsLimit' at the field after
 * MAX_PARTS fields, all errors to us. Form fields are never kept (there is no
 * 'field' listener, so busboy skips them; fieldSize 0 says so too). A part's header
 * block is capped at 16 KiB by busboy itself, which also bounds its header
 * pairs (busboy 1.6 does not read `limits.headerPairs` for multipart).
 */
function formDataParser(contentType: string | null, maxFileBytes: number): Busboy | null {
  if (!contentType) return null;
  try {
    const type = new MIMEType(contentType);
    const boundary = type.params.get("boundary");
    if (type.essence !== "multipart/form-data" || !boundary || boundary.length > 70) return null;
    return busboy({
      headers: { "content-type": contentType },
      limits: { fileSize: maxFileBytes + 1, parts: MAX_PARTS + 1, fields: MAX_PARTS, fieldSize: 0 },
      // The client's file name as sent (it is never used as a path), decoded as UTF-8 like the rest of the form.
      preservePath: true,
      defParamCharset: "utf8",
    });
  } catch {
    return null; // a Content-Type busboy cannot read
  }
}

/** Settles as `step` does, or rejects with the signal's reason as soon as it aborts; holds nothing after. */
function unlessFailed<T>(step: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    step.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Hands one chunk to busboy and resolves once busboy has taken it. */
function writeChunk(parser: Busboy, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    parser.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
}

/** The answer for a body busboy could not parse. */
function multipartMessage(error: Error): string {
  if (/^Unexpected end of (form|file)/.test(error.message))
    return "The multipart body ended before it was complete";
  if (error.message === "Malformed part header")
    return "Multipart part headers are malformed or too large";
  return "Malformed multipart body";
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
