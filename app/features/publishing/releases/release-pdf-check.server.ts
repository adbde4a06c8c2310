import { Worker } from "node:worker_threads";
import { BoundedGate, GateFullError } from "~/infra/bounded-gate.server";
import { findAppSourceFile } from "~/infra/app-source-file.server";
import { serviceUnavailable } from "~/infra/errors.server";

/**
 * Whether an uploaded model release is a PDF that opens, and how many pages it
 * has, without letting a crafted file hold the server. pdf-lib opens it in a
 * worker thread of its own (release-pdf-worker.mjs), started for this one file
 * and ended after it: with a heap limit, a limit on what its streams may
 * unpack to, on how many objects it may hold, and a deadline for the whole
 * check, past which the worker is ended and the file refused. One file is checked at a time; a few more wait, and beyond those
 * the upload is answered 503 at once (docs/decisions/068).
 */

export const RELEASE_PDF_WORKER = "features/publishing/releases/release-pdf-worker.mjs";

export interface ReleasePdfLimits {
  /**
   * How long the whole check may take, the worker's start included: past it a
   * file being opened is refused, and a worker that has not even loaded
   * pdf-lib yet (a saturated machine) answers 503.
   */
  deadlineMs: number;
  /** The worker's JavaScript heap (old generation). */
  heapMb: number;
  /** All the file's object and cross-reference streams together, unpacked. */
  maxUnpackedBytes: number;
  /**
   * Indirect objects, those inside object streams included: a signed release
   * of a few pages holds tens to a few hundred. Counted as they are read, so
   * a file of many small objects is refused the same on a fast machine and a
   * slow one, not left to the deadline.
   */
  maxObjects: number;
}

export const RELEASE_PDF_LIMITS: ReleasePdfLimits = {
  deadlineMs: 1_250,
  heapMb: 128,
  maxUnpackedBytes: 16 * 1024 * 1024,
  maxObjects: 10_000,
};

export type ReleasePdfCheck =
  | { readable: true; pages: number }
  | {
      readable: false;
      /** not-a-pdf: no PDF header; unreadable: pdf-lib cannot open it or finds no page; the rest: a limit was passed. */
      reason: "not-a-pdf" | "unreadable" | "too-complex" | "timed-out" | "out-of-memory";
    };

type WorkerAnswer = { pages: number } | { refused: "too-complex" | "unreadable" };

/** One check at a time (a core stays free for the requests); four more may wait for their turn. */
const checks = new BoundedGate(1, 4);

const BUSY = "Other releases are being checked right now; please try again in a few seconds.";

/**
 * `workerScript` is the worker's file, release-pdf-worker.mjs unless a test
 * stands another in (one that never answers, to reach the deadline).
 */
export async function checkReleasePdf(
  bytes: Uint8Array,
  limits: ReleasePdfLimits = RELEASE_PDF_LIMITS,
  workerScript: string = findAppSourceFile(RELEASE_PDF_WORKER),
): Promise<ReleasePdfCheck> {
  if (bytes.length < 8 || Buffer.from(bytes.subarray(0, 5)).toString("latin1") !== "%PDF-")
    return { readable: false, reason: "not-a-pdf" };
  try {
    return await checks.run(() => openInWorker(bytes, limits, workerScript));
  } catch (error) {
    if (error instanceof GateFullError) throw serviceUnavailable(5, BUSY);
    throw error;
  }
}

function openInWorker(
  bytes: Uint8Array,
  limits: ReleasePdfLimits,
  workerScript: string,
): Promise<ReleasePdfCheck> {
  return new Promise<ReleasePdfCheck>((resolve, reject) => {
    // Plain JavaScript: none of the parent's loader flags (tsx, test preloads) apply to it.
    const worker = new Worker(workerScript, {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16 },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    let opening = false;
    const timer = setTimeout(
      () =>
        settle(() =>
          opening
            ? resolve({ readable: false, reason: "timed-out" })
            : reject(serviceUnavailable(5, BUSY)),
        ),
      limits.deadlineMs,
    );
    worker.on("message", (message: { ready: true } | WorkerAnswer) => {
      if ("ready" in message) {
        opening = true;
        // A copy the worker owns: the caller's buffer stays usable.
        const copy = new Uint8Array(bytes);
        worker.postMessage(
          {
            bytes: copy,
            maxUnpackedBytes: limits.maxUnpackedBytes,
            maxObjects: limits.maxObjects,
          },
          [copy.buffer],
        );
        return;
      }
      settle(() =>
        resolve(
          "pages" in message
            ? message.pages > 0
              ? { readable: true, pages: message.pages }
              : { readable: false, reason: "unreadable" }
            : { readable: false, reason: message.refused },
        ),
      );
    });
    worker.on("error", (error: Error & { code?: string }) =>
      settle(() =>
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? resolve({ readable: false, reason: "out-of-memory" })
          : reject(error),
      ),
    );
    worker.on("exit", (code) =>
      settle(() => reject(new Error(`The release PDF check stopped (exit code ${code}).`))),
    );
  });
}
