/**
 * A small streaming parser for multipart/form-data (RFC 7578) bodies.
 *
 * It is fed chunks as they arrive and answers events (a part starts, a piece of
 * its body, the part ends) without ever holding more than one chunk plus a few
 * bytes of look-behind, so the caller decides where each byte goes (a file on
 * disk, or nowhere) and memory does not grow with the size of the upload.
 * Synchronous and free of I/O, so it can be tested with any chunking.
 */

export interface PartHeaders {
  /** The form field name from Content-Disposition. */
  name: string | null;
  /** The client's file name, when the part is a file (never used as a path). */
  filename: string | null;
  contentType: string | null;
}

export type MultipartEvent =
  | { type: "part-start"; headers: PartHeaders }
  | { type: "part-data"; data: Uint8Array }
  | { type: "part-end" };

export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MultipartError";
  }
}

export interface MultipartLimits {
  /** Largest header block of one part. */
  maxHeaderBytes: number;
  /** Most parts in one body. */
  maxParts: number;
}

const DEFAULT_LIMITS: MultipartLimits = { maxHeaderBytes: 16 * 1024, maxParts: 32 };
const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");
const EMPTY = Buffer.alloc(0);

type State = "preamble" | "after-delimiter" | "headers" | "body" | "done";

/** The boundary of a multipart/form-data Content-Type, or null when it is not one. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType) return null;
  const [type, ...params] = contentType.split(";");
  if (type.trim().toLowerCase() !== "multipart/form-data") return null;
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq === -1) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== "boundary") continue;
    let value = param.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    // RFC 2046: 1 to 70 characters.
    return value.length >= 1 && value.length <= 70 ? value : null;
  }
  return null;
}

export class MultipartParser {
  /** "\r\n--boundary": the body is read as if it began with CRLF, so the first boundary needs no special case. */
  private readonly delimiter: Buffer;
  private readonly limits: MultipartLimits;
  private state: State = "preamble";
  private carry: Buffer = CRLF;
  private parts = 0;

  constructor(boundary: string, limits: Partial<MultipartLimits> = {}) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  get finished(): boolean {
    return this.state === "done";
  }

  write(chunk: Uint8Array): MultipartEvent[] {
    const events: MultipartEvent[] = [];
    if (this.state === "done") return events; // the epilogue is ignored
    const incoming = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const buffer = this.carry.length > 0 ? Buffer.concat([this.carry, incoming]) : incoming;
    this.carry = EMPTY;
    let position = 0;

    for (;;) {
      if (this.state === "preamble" || this.state === "body") {
        const found = buffer.indexOf(this.delimiter, position);
        if (found === -1) {
          // Keep just enough bytes to recognise a delimiter split across chunks.
          const keep = Math.min(this.delimiter.length - 1, buffer.length - position);
          const safeEnd = buffer.length - keep;
          if (this.state === "body" && safeEnd > position) {
            events.push({ type: "part-data", data: buffer.subarray(position, safeEnd) });
          }
          this.carry = Buffer.from(buffer.subarray(safeEnd)); // a copy: never pin a whole chunk
          return events;
        }
        if (this.state === "body") {
          if (found > position) events.push({ type: "part-data", data: buffer.subarray(position, found) });
          events.push({ type: "part-end" });
        }
        position = found + this.delimiter.length;
        this.state = "after-delimiter";
        continue;
      }

      if (this.state === "after-delimiter") {
        if (buffer.length - position < 2) {
          this.carry = Buffer.from(buffer.subarray(position));
          return events;
        }
        const a = buffer[position];
        const b = buffer[position + 1];
        if (a === 0x2d && b === 0x2d) {
          this.state = "done";
          return events;
        }
        if (a !== 0x0d || b !== 0x0a) throw new MultipartError("Malformed multipart body");
        this.state = "headers"; // the CRLF stays: an empty header block is then just CRLF CRLF
        continue;
      }

      if (this.state === "headers") {
        const end = buffer.indexOf(HEADER_END, position);
        if (end === -1) {
          if (buffer.length - position > this.limits.maxHeaderBytes) {
            throw new MultipartError("Multipart part headers are too large");
          }
          this.carry = Buffer.from(buffer.subarray(position));
          return events;
        }
        if (end - position > this.limits.maxHeaderBytes) throw new MultipartError("Multipart part headers are too large");
        this.parts += 1;
        if (this.parts > this.limits.maxParts) throw new MultipartError("Too many parts in the multipart body");
        const text = buffer.toString("utf8", position + 2, end);
        events.push({ type: "part-start", headers: parsePartHeaders(text) });
        position = end + HEADER_END.length;
        this.state = "body";
        continue;
      }

      return events; // "done"
    }
  }

  /** Call when the body has ended; a body that stopped before its closing boundary is an error. */
  end(): void {
    if (this.state !== "done") throw new MultipartError("The multipart body ended before it was complete");
  }
}

export function parsePartHeaders(block: string): PartHeaders {
  const headers: PartHeaders = { name: null, filename: null, contentType: null };
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon === -1) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === "content-type") headers.contentType = value || null;
    if (field === "content-disposition") {
      const params = dispositionParams(value);
      headers.name = params.get("name") ?? null;
      headers.filename = params.get("filename*") ?? params.get("filename") ?? null;
    }
  }
  return headers;
}

/** The parameters of a Content-Disposition value, quoted strings and RFC 5987 `filename*` included. */
function dispositionParams(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of value.matchAll(pattern)) {
    const key = match[1].toLowerCase();
    let text = match[2] !== undefined ? match[2].replace(/\\(.)/g, "$1") : (match[3] ?? "").trim();
    if (key.endsWith("*")) {
      const extended = /^([^']*)'[^']*'(.*)$/.exec(text);
      if (extended) {
        try {
          text = decodeURIComponent(extended[2]);
        } catch {
          continue;
        }
      }
    }
    params.set(key, text);
  }
  return params;
}
