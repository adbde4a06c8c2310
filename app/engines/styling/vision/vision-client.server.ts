import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { Worker } from "node:worker_threads";

/**
 * The main thread's side of the model worker (vision-worker.mjs): starts it
 * lazily, once per process, and asks it for a person mask and face landmarks.
 * The models run in the worker, off the web server's event loop; requests are
 * answered in order. The worker is unref'd, so it never keeps a finished
 * process alive.
 */

export const WORKER_FILE = "vision-worker.mjs";

/** RGB bytes, row by row, no padding. */
export interface RgbPlane {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface FoundFace {
  score: number;
  /** [x, y, width, height] in the face image's pixels. */
  box: [number, number, number, number];
  /** The 468 MediaPipe face mesh points, [x, y]. */
  mesh: Array<[number, number]>;
  /** The 10 iris points (centre and four around, for each eye), [x, y]. */
  iris: Array<[number, number]>;
  /** The face descriptor (faceres embedding), only when the request asked to `describe`. */
  embedding?: number[];
}

export interface VisionAnswer {
  /** Person probability, 0-255, at the segment image's size. */
  mask: Uint8Array;
  faces: FoundFace[];
}

interface WorkerReply {
  id: number;
  mask?: Uint8Array;
  faces?: FoundFace[];
  error?: string;
}

/**
 * The worker file: beside this module in the source tree (tsx, vitest); from
 * the server build (build/index.js) it is searched for upwards, then from the
 * working directory, as app/engines/styling/vision-worker.mjs.
 */
export function findWorkerFile(): string {
  const here = path.dirname(url.fileURLToPath(import.meta.url));
  const beside = path.resolve(here, "..", WORKER_FILE);
  if (fs.existsSync(beside)) return beside;
  for (const start of [here, process.cwd()]) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, "app", "engines", "styling", WORKER_FILE);
      if (fs.existsSync(candidate)) return candidate;
      if (path.dirname(dir) === dir) break;
    }
  }
  throw new Error(`The style engine's model worker (${WORKER_FILE}) is missing.`);
}

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<
  number,
  { resolve: (answer: VisionAnswer) => void; reject: (error: Error) => void }
>();
/** How many workers this process has started (the tests check it stays at one). */
export let workersStarted = 0;

function failAll(from: Worker, error: Error) {
  if (worker !== from) return;
  for (const waiting of pending.values()) waiting.reject(error);
  pending.clear();
  worker = undefined;
}

function getWorker(): Worker {
  if (worker) return worker;
  // Plain JavaScript: none of the parent's loader flags (tsx, test preloads) apply to it.
  const started = new Worker(findWorkerFile(), { execArgv: [] });
  workersStarted++;
  started.unref();
  started.on("message", (reply: WorkerReply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.error || !reply.mask) waiting.reject(new Error(reply.error ?? "No mask came back."));
    else waiting.resolve({ mask: reply.mask, faces: reply.faces ?? [] });
  });
  started.on("error", (error) => failAll(started, error));
  started.on("exit", (code) =>
    failAll(started, new Error(`The model worker stopped (exit code ${code}).`)),
  );
  worker = started;
  return started;
}

/**
 * Runs segmentation on `segment` (at the model's input size, 256x256) and/or
 * face detection with mesh and iris on `face` (the mask is empty without a
 * `segment`, the faces without a `face`); with `describe`, each face also
 * gets its descriptor (the face description model's embedding).
 */
export function askVision(request: {
  segment?: RgbPlane;
  face?: RgbPlane;
  describe?: boolean;
}): Promise<VisionAnswer> {
  const target = getWorker();
  const id = nextId++;
  return new Promise<VisionAnswer>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // While a request is out the worker keeps the process alive; idle, it does not.
    target.ref();
    target.postMessage({ id, ...request });
  }).finally(() => {
    if (pending.size === 0) worker?.unref();
  });
}

/** Stops the worker (tests and scripts that want a clean exit; the next request starts a new one). */
export async function stopVision(): Promise<void> {
  const running = worker;
  worker = undefined;
  if (running) await running.terminate();
}
