// The uploaded model release's check, in a node:worker_threads worker of its
// own (plain JavaScript, so that the same file runs under tsx, vitest and the
// built server): pdf-lib opens the PDF here, off the web server's event loop,
// under the heap limit and the deadline the main thread sets
// (release-pdf-check.server.ts), which ends the worker when either is passed.
//   out: { ready: true } once pdf-lib is loaded, then one answer:
//   in:  { bytes: Uint8Array, maxUnpackedBytes: number, maxObjects: number }
//   out: { pages: number } | { refused: "too-complex" } | { refused: "unreadable" }
//
// pdf-lib unpacks the file's object and cross-reference streams in JavaScript
// and whole, outside the heap the limit counts: a stream of 64 KB can unpack
// to 64 MB. Each is measured first with zlib (native, stopped at what is left
// of `maxUnpackedBytes`); one that would pass it, or packed in another way
// than Flate, makes the file too complex. A stream zlib cannot unpack is
// skipped, as pdf-lib skips an object it cannot read.
//
// Every indirect object pdf-lib reads, from the file or from an object stream,
// is counted as it is stored; the one past `maxObjects` makes the file too
// complex, so a file of many small objects is refused by its count, the same
// on any machine, rather than by the deadline.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import zlib from "node:zlib";
import { parentPort } from "node:worker_threads";

const require = createRequire(import.meta.url);
// The single-file build: it loads in a fraction of the time of the package's ~500 modules.
const {
  PDFArray,
  PDFContext,
  PDFDocument,
  PDFName,
  PDFObjectStreamParser,
  PDFXRefStreamParser,
} = require("pdf-lib/dist/pdf-lib.min.js");

// pdf-lib reports each object it cannot read on the console: a crafted file would flood the log.
console.log = () => {};
console.warn = () => {};

let unpackedLeft = 0;
let objectsLeft = 0;
let tooComplex = false;

class TooComplex extends Error {}

function measureStream(rawStream) {
  const filter = rawStream.dict.lookup(PDFName.of("Filter"));
  const filters = filter instanceof PDFArray ? filter.asArray() : filter ? [filter] : [];
  if (filters.length === 0) return; // stored as it is: no larger than the upload
  if (filters.length !== 1 || filters[0] !== PDFName.of("FlateDecode")) {
    tooComplex = true;
    throw new TooComplex("packed other than with Flate");
  }
  let unpacked;
  try {
    unpacked = zlib.inflateSync(rawStream.contents, {
      maxOutputLength: Math.max(1, unpackedLeft),
      finishFlush: zlib.constants.Z_SYNC_FLUSH,
    });
  } catch (error) {
    if (error?.code === "ERR_BUFFER_TOO_LARGE") {
      tooComplex = true;
      throw new TooComplex("unpacks to too much");
    }
    throw error;
  }
  unpackedLeft -= unpacked.length;
}

for (const Parser of [PDFObjectStreamParser, PDFXRefStreamParser]) {
  const forStream = Parser.forStream;
  Parser.forStream = function measuredFirst(rawStream, ...rest) {
    measureStream(rawStream);
    return forStream.call(this, rawStream, ...rest);
  };
}

const assign = PDFContext.prototype.assign;
PDFContext.prototype.assign = function counted(ref, object) {
  objectsLeft -= 1;
  if (objectsLeft < 0) {
    tooComplex = true;
    throw new TooComplex("too many objects");
  }
  return assign.call(this, ref, object);
};

/**
 * On Linux, this thread alone yields to the process's other threads (the event
 * loop answering requests) when they compete for a core: nice 10. Elsewhere,
 * or where it is not allowed, nothing changes.
 */
function yieldToTheEventLoop() {
  try {
    const thread = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(thread) && thread > 0) os.setPriority(thread, 10);
  } catch {
    // not Linux, or not allowed: the same priority as the server
  }
}

parentPort.once("message", async ({ bytes, maxUnpackedBytes, maxObjects }) => {
  yieldToTheEventLoop();
  unpackedLeft = maxUnpackedBytes;
  objectsLeft = maxObjects;
  let answer;
  try {
    const pdf = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      updateMetadata: false,
      // Alone on its thread: no need to let others run between objects.
      parseSpeed: Infinity,
    });
    answer = tooComplex ? { refused: "too-complex" } : { pages: pdf.getPageCount() };
  } catch {
    answer = { refused: tooComplex ? "too-complex" : "unreadable" };
  }
  parentPort.postMessage(answer);
  parentPort.close();
});
parentPort.postMessage({ ready: true });
