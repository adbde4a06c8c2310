// The public Content Credentials check (POST /api/provenance/check, /provenance),
// in a node:worker_threads worker of its own (plain JavaScript, so that the same
// file runs under tsx, vitest and the built server): @trustnxt/c2pa-ts reads and
// validates the manifest here, off the web server's event loop, under the heap
// limit and the deadline the main thread sets (credentials-check.server.ts),
// which ends the worker when either is passed.
//   out: { ready: true } once c2pa-ts is loaded, then for each file (one at a time):
//   in:  { bytes: Uint8Array, maxManifestBytes: number }
//   out: { report } | { refused: "not-an-image" | "damaged" | "too-complex" }
// The main thread keeps the worker for the next file, and ends it when a file
// passes a limit.
//
// Before any manifest is read, the file's own structure is walked: a JPEG must
// reach its end-of-image marker after its scan starts, a PNG its IEND chunk, a
// WebP's chunks must end within the file and its RIFF size must fit it. A file
// cut short is "damaged", whatever a manifest in its first bytes would say. A
// manifest store larger than `maxManifestBytes`, or whose boxes nest too deep
// or are too many, is not parsed ("too-complex").
// A manifest that cannot be parsed is reported as present and not valid.
import { parentPort } from "node:worker_threads";
import { JPEG, PNG } from "@trustnxt/c2pa-ts/asset";
import { SuperBox } from "@trustnxt/c2pa-ts/jumbf";
import { ManifestStore } from "@trustnxt/c2pa-ts/manifest";
import { WebPAsset } from "./webp-asset.mjs";

// c2pa-ts may report what it skips on the console: a crafted file would flood the log.
console.log = () => {};
console.warn = () => {};

/** The most chunks a PNG may have for the walk (a still image has tens). */
const MAX_PNG_CHUNKS = 100_000;
/** How long a text taken from a manifest may be in the report. */
const MAX_TEXT = 300;
/** How deep a manifest store's boxes may nest (a real one: store, manifest, assertion store, assertion, content: 5). */
const MAX_JUMBF_DEPTH = 32;
/** How many boxes a manifest store may hold (a real one: tens, a few hundred with many ingredients). */
const MAX_JUMBF_BOXES = 20_000;

/**
 * The shape of a manifest store's box tree, walked without recursion before
 * c2pa-ts parses it (whose parsing of a tree nested thousands deep takes
 * seconds): "too-complex" past the depth or count above, "malformed" for a box
 * that does not fit in its parent, else null.
 */
function jumbfShapeProblem(jumbf) {
  const data = new DataView(jumbf.buffer, jumbf.byteOffset, jumbf.byteLength);
  const stack = [{ at: 0, end: jumbf.length, depth: 0 }];
  let boxes = 0;
  while (stack.length > 0) {
    const level = stack[stack.length - 1];
    if (level.at >= level.end) {
      stack.pop();
      continue;
    }
    if (level.at + 8 > level.end) return "malformed";
    let length = data.getUint32(level.at);
    let header = 8;
    if (length === 1) {
      if (level.at + 16 > level.end) return "malformed";
      length = Number(data.getBigUint64(level.at + 8));
      header = 16;
    } else if (length === 0) length = level.end - level.at;
    if (length < header || level.at + length > level.end) return "malformed";
    if (++boxes > MAX_JUMBF_BOXES) return "too-complex";
    const type = String.fromCharCode(
      jumbf[level.at + 4],
      jumbf[level.at + 5],
      jumbf[level.at + 6],
      jumbf[level.at + 7],
    );
    const start = level.at + header;
    level.at += length;
    if (type === "jumb") {
      if (level.depth + 1 > MAX_JUMBF_DEPTH) return "too-complex";
      stack.push({ at: start, end: start + length - header, depth: level.depth + 1 });
    }
  }
  return null;
}

/** Whether a JPEG's segments reach the scan and an end-of-image marker follows it. */
function jpegComplete(bytes) {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return false;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    if (length < 2) return false;
    at += 2 + length;
    if (marker === 0xda) {
      // Entropy-coded data holds no 0xFF 0xD9 (its 0xFF bytes are stuffed): the first one ends the image.
      for (let i = at; i + 1 < bytes.length; i++) {
        if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return true;
      }
      return false;
    }
  }
  return false;
}

/** Whether a PNG's chunks end within the file, up to its IEND chunk. */
function pngComplete(bytes) {
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  for (let count = 0; count < MAX_PNG_CHUNKS && at + 12 <= bytes.length; count++) {
    const length = data.getUint32(at);
    const type = String.fromCharCode(bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]);
    const end = at + 12 + length;
    if (end > bytes.length) return false;
    if (type === "IEND") return true;
    at = end;
  }
  return false;
}

/** Whether a WebP's declared RIFF size fits the file (its chunks were walked by WebPAsset). */
function webpComplete(bytes) {
  const declared = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(
    4,
    true,
  );
  return declared + 8 <= bytes.length;
}

function text(value) {
  return typeof value === "string" && value.length > 0 ? value.slice(0, MAX_TEXT) : null;
}

/** The signer as a reader names it: the signing certificate's organization, else its common name. */
function signerOf(manifest) {
  const certificate = manifest.signature?.signatureData?.certificate;
  if (!certificate) return null;
  try {
    const name = certificate.subjectName;
    return text(name.getField("O")[0]) ?? text(name.getField("CN")[0]) ?? text(certificate.subject);
  } catch {
    return null;
  }
}

function iso(value) {
  if (typeof value !== "string" && !(value instanceof Date)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The raw actions of the manifest's actions assertions, in order (`c2pa.created` or `c2pa.opened` first in a valid one). */
function rawActions(manifest) {
  const found = [];
  for (const assertion of manifest.assertions?.assertions ?? []) {
    if (assertion.label !== "c2pa.actions" && assertion.label !== "c2pa.actions.v2") continue;
    const content = assertion.sourceBox?.contentBoxes?.[0]?.content;
    if (content && Array.isArray(content.actions)) found.push(...content.actions);
  }
  return found.filter((action) => action && typeof action === "object");
}

function claimGeneratorOf(manifest) {
  const claim = manifest.claim;
  const name = text(claim?.claimGeneratorName);
  if (!name) return null;
  const version = text(claim?.claimGeneratorVersion);
  return version ? `${name} ${version}`.slice(0, MAX_TEXT) : name;
}

const NOT_VALID = {
  manifest: true,
  valid: false,
  signer: null,
  digitalSourceType: null,
  claimGenerator: null,
  createdAt: null,
};

async function check(bytes, maxManifestBytes) {
  let asset;
  try {
    if (JPEG.canRead(bytes)) asset = jpegComplete(bytes) ? new JPEG(bytes) : null;
    else if (PNG.canRead(bytes)) asset = pngComplete(bytes) ? new PNG(bytes) : null;
    else if (WebPAsset.canRead(bytes)) {
      asset = new WebPAsset(bytes);
      if (!webpComplete(bytes)) asset = null;
    } else return { refused: "not-an-image" };
  } catch {
    return { refused: "damaged" };
  }
  if (!asset) return { refused: "damaged" };
  let jumbf;
  try {
    jumbf = asset.getManifestJUMBF();
  } catch {
    return { report: NOT_VALID };
  }
  if (!jumbf) return { report: { manifest: false } };
  if (jumbf.length > maxManifestBytes) return { refused: "too-complex" };
  const shape = jumbfShapeProblem(jumbf);
  if (shape === "too-complex") return { refused: "too-complex" };
  if (shape === "malformed") return { report: NOT_VALID };

  let store;
  let manifest;
  try {
    store = ManifestStore.read(SuperBox.fromBuffer(jumbf));
    manifest = store.getActiveManifest();
  } catch {
    return { report: NOT_VALID };
  }
  if (!manifest) return { report: NOT_VALID };
  let valid = false;
  try {
    valid = (await store.validate(asset)).isValid === true;
  } catch {
    valid = false;
  }
  const actions = rawActions(manifest);
  const inception =
    actions.find((action) => action.action === "c2pa.created" || action.action === "c2pa.opened") ??
    actions[0];
  const withSource = [inception, ...actions].find(
    (action) => action && typeof action.digitalSourceType === "string",
  );
  let createdAt = iso(inception?.when);
  if (!createdAt) {
    try {
      createdAt = iso(manifest.signature?.signatureData?.timestamp);
    } catch {
      createdAt = null;
    }
  }
  return {
    report: {
      manifest: true,
      valid,
      signer: signerOf(manifest),
      digitalSourceType: text(withSource?.digitalSourceType),
      claimGenerator: claimGeneratorOf(manifest),
      createdAt,
    },
  };
}

parentPort.on("message", async (message) => {
  let answer;
  try {
    answer = await check(message.bytes, message.maxManifestBytes);
  } catch {
    answer = { report: NOT_VALID };
  }
  parentPort.postMessage(answer);
});
parentPort.postMessage({ ready: true });
