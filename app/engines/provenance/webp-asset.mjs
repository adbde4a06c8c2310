// A WebP file as a C2PA asset: the container part @trustnxt/c2pa-ts (0.9.4) has
// for JPEG, PNG and HEIF but not for WebP. c2pa-ts builds, signs and validates
// the manifest store; this class only finds it in the file and makes room for
// it, as the C2PA specification lays a manifest store into a RIFF file: one
// top-level chunk with the id `C2PA` whose data is the store (JUMBF), placed
// after the image's chunks, with the RIFF size updated. The data hash leaves out
// that chunk (its 8-byte header and its data); a pad byte after odd-sized data
// stays in the hashed bytes. The same file serves the signing service
// (content-credentials.server.ts) and the check's worker
// (credentials-check-worker.mjs), which is plain JavaScript: so is this.
//
// Reading walks the top-level chunks once, each checked against the file's end;
// a chunk that runs past it, or more than MAX_CHUNKS of them, makes the file
// unreadable (MalformedContentError).

import { MalformedContentError } from "@trustnxt/c2pa-ts";

const C2PA_ID = [0x43, 0x32, 0x50, 0x41]; // "C2PA"
const HEADER = 12; // "RIFF", the size, "WEBP"
/** More top-level chunks than any WebP has (a still image has a handful): past it the file is refused. */
const MAX_CHUNKS = 1_000;

function ascii(bytes, at) {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}

function view(bytes) {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The top-level chunks of a WebP file: `{ id, offset, length }` (offset of the 8-byte header; length of the data). */
function readChunks(bytes) {
  const chunks = [];
  const data = view(bytes);
  let at = HEADER;
  while (at < bytes.length) {
    if (at + 8 > bytes.length) throw new MalformedContentError("WebP chunk header cut short");
    const length = data.getUint32(at + 4, true);
    const end = at + 8 + length;
    if (end > bytes.length)
      throw new MalformedContentError("WebP chunk runs past the end of the file");
    if (chunks.length === MAX_CHUNKS) throw new MalformedContentError("Too many WebP chunks");
    chunks.push({ id: ascii(bytes, at), offset: at, length });
    at = end + (length & 1);
  }
  return chunks;
}

export class WebPAsset {
  mimeType = "image/webp";

  /** @param {Uint8Array} data */
  constructor(data) {
    if (!WebPAsset.canRead(data)) throw new MalformedContentError("Not a WebP file");
    /** @type {Uint8Array} */
    this.data = data;
    /** @type {{ id: string, offset: number, length: number }[]} */
    this.chunks = readChunks(data);
  }

  /** @param {Uint8Array} bytes */
  static canRead(bytes) {
    return bytes.length >= HEADER && ascii(bytes, 0) === "RIFF" && ascii(bytes, 8) === "WEBP";
  }

  /** The C2PA chunk, if the file has one (the first, as readers take it). */
  manifestChunk() {
    return this.chunks.find((chunk) => chunk.id === "C2PA");
  }

  getDataLength() {
    return this.data.length;
  }

  /**
   * @param {number} [start]
   * @param {number} [length]
   * @returns {Promise<Uint8Array>}
   */
  async getDataRange(start = 0, length = undefined) {
    return this.data.subarray(start, length === undefined ? undefined : start + length);
  }

  /** @returns {Uint8Array | undefined} */
  getManifestJUMBF() {
    const chunk = this.manifestChunk();
    return chunk
      ? this.data.subarray(chunk.offset + 8, chunk.offset + 8 + chunk.length)
      : undefined;
  }

  dumpInfo() {
    return [
      "WebP file:",
      ...this.chunks.map((c) => `  ${c.id} at ${c.offset}, ${c.length} bytes`),
    ].join("\n");
  }

  /**
   * Takes out any C2PA chunk and appends an empty one of `length` data bytes
   * (zeros until writeManifestJUMBF fills them), fixing the RIFF size.
   * @param {number} length
   */
  async ensureManifestSpace(length) {
    const kept = this.chunks.filter((chunk) => chunk.id !== "C2PA");
    const keptBytes = kept.reduce((sum, c) => sum + 8 + c.length + (c.length & 1), 0);
    const size = HEADER + keptBytes + 8 + length + (length & 1);
    const out = new Uint8Array(size);
    out.set(this.data.subarray(0, HEADER));
    let at = HEADER;
    for (const chunk of kept) {
      const whole = 8 + chunk.length + (chunk.length & 1);
      out.set(this.data.subarray(chunk.offset, chunk.offset + whole), at);
      at += whole;
    }
    const data = view(out);
    out.set(C2PA_ID, at);
    data.setUint32(at + 4, length, true);
    data.setUint32(4, size - 8, true);
    this.data = out;
    this.chunks = readChunks(out);
  }

  getHashExclusionRange() {
    const chunk = this.manifestChunk();
    if (!chunk) throw new Error("The WebP file has no room for a manifest yet");
    return { start: chunk.offset, length: 8 + chunk.length };
  }

  /** @param {Uint8Array} jumbf */
  async writeManifestJUMBF(jumbf) {
    const chunk = this.manifestChunk();
    if (!chunk || chunk.length !== jumbf.length)
      throw new Error("The manifest does not fit the room made for it");
    this.data.set(jumbf, chunk.offset + 8);
  }
}
