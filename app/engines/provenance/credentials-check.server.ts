import { Worker } from "node:worker_threads";
import { BoundedGate, GateFullError } from "~/infra/bounded-gate.server";
import { findAppSourceFile } from "~/infra/app-source-file.server";
import { serviceUnavailable } from "~/infra/errors.server";
import type { ProvenanceReport } from "~/lib/content-credentials";
import { mimeTypeOf } from "~/engines/provenance/content-credentials.server";

/**
 * Reads the Content Credentials of any file someone hands the public check,
 * without letting a crafted file hold the server: c2pa-ts reads and validates
 * it in a worker thread (credentials-check-worker.mjs) with a heap limit, a
 * cap on the manifest store's size, and a deadline past which the worker is
 * ended and the file refused. Loading c2pa-ts takes the worker a good part of
 * a second of CPU, so one worker is kept and reused, one file at a time, until
 * a file ends it (the deadline, the heap limit), it has read MAX_USES files, or
 * it has been idle IDLE_MS; the next check starts a fresh one. A few checks
 * more may wait for their turn; beyond those the check is answered 503 at once
 * (as the model releases' check, docs/decisions/068).
 */

export const CHECK_WORKER = "engines/provenance/credentials-check-worker.mjs";

export interface CredentialsCheckLimits {
  /** How long the worker may take to start and load c2pa-ts: past it the server is too busy (503). */
  loadMs: number;
  /** How long reading and validating may take once loaded: past it the file is refused. */
  checkMs: number;
  /** The worker's JavaScript heap (old generation). */
  heapMb: number;
  /** The largest manifest store read: real ones are a few kilobytes, a few hundred with thumbnails. */
  maxManifestBytes: number;
}

export const CHECK_LIMITS: CredentialsCheckLimits = {
  loadMs: 10_000,
  checkMs: 2_000,
  heapMb: 96,
  maxManifestBytes: 4 * 1024 * 1024,
};

export type CredentialsCheck =
  | { read: true; report: ProvenanceReport }
  | {
      read: false;
      /** not-an-image: not JPEG, PNG or WebP; damaged: its structure is cut short or broken; the rest: a limit was passed. */
      reason: "not-an-image" | "damaged" | "too-complex" | "timed-out" | "out-of-memory";
    };

type WorkerAnswer =
  | { ready: true }
  | { report: ProvenanceReport }
  | { refused: "not-an-image" | "damaged" | "too-complex" };

const checks = new BoundedGate(1, 4);

const BUSY = "Other files are being checked right now; please try again in a few seconds.";

/** A kept worker reads at most this many files before it is replaced (whatever they left behind goes with it). */
const MAX_USES = 200;
/** A worker idle this long is ended (its memory given back); the next check starts another. */
const IDLE_MS = 2 * 60_000;

/** `workerScript`: the worker's file, credentials-check-worker.mjs unless a test stands another in. */
export async function checkContentCredentials(
  bytes: Uint8Array,
  limits: CredentialsCheckLimits = CHECK_LIMITS,
  workerScript: string = findAppSourceFile(CHECK_WORKER),
): Promise<CredentialsCheck> {
  if (!mimeTypeOf(bytes)) return { read: false, reason: "not-an-image" };
  try {
    return await checks.run(async () => {
      const worker = await readyWorker(workerScript, limits);
      return worker.read(bytes, limits);
    });
  } catch (error) {
    if (error instanceof GateFullError) throw serviceUnavailable(5, BUSY);
    throw error;
  }
}

/** Ends the kept worker now (tests; a check starts another when needed). */
export async function endCheckWorker(): Promise<void> {
  const worker = kept;
  kept = undefined;
  await worker?.end();
}

let kept: CheckWorker | undefined;

/** The kept worker for `script`, started (and loaded) when there is none; 503 when it cannot load within `loadMs`. */
async function readyWorker(script: string, limits: CredentialsCheckLimits): Promise<CheckWorker> {
  if (kept && (kept.script !== script || kept.ended)) await endCheckWorker();
  if (!kept) kept = new CheckWorker(script, limits.heapMb);
  const worker = kept;
  try {
    await worker.loaded(limits.loadMs);
  } catch (error) {
    if (kept === worker) kept = undefined;
    await worker.end();
    throw error;
  }
  return worker;
}

class CheckWorker {
  readonly worker: Worker;
  ended = false;
  private uses = 0;
  private readonly ready: Promise<void>;
  /** What a running read is told when the worker stops (an error, an exit); null between reads. */
  private onStop: ((error: Error & { code?: string }) => void) | null = null;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    readonly script: string,
    heapMb: number,
  ) {
    // Plain JavaScript: none of the parent's loader flags (tsx, test preloads) apply to it.
    this.worker = new Worker(script, {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16 },
    });
    this.worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.once("message", (message: WorkerAnswer) =>
        "ready" in message
          ? resolve()
          : reject(new Error("The check worker answered before it was ready")),
      );
      this.worker.once("error", reject);
      this.worker.once("exit", (code) =>
        reject(new Error(`The Content Credentials check did not start (exit code ${code}).`)),
      );
    });
    this.ready.catch(() => {});
    this.worker.on("error", (error: Error & { code?: string }) => this.stopped(error));
    this.worker.on("exit", (code) =>
      this.stopped(new Error(`The Content Credentials check ended (exit code ${code}).`)),
    );
  }

  private stopped(error: Error & { code?: string }) {
    this.ended = true;
    if (kept === this) kept = undefined;
    const onStop = this.onStop;
    this.onStop = null;
    onStop?.(error);
  }

  /** Resolves once c2pa-ts is loaded; a 503 past `loadMs` (a saturated machine). */
  async loaded(loadMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(serviceUnavailable(5, BUSY)), loadMs);
    });
    try {
      await Promise.race([this.ready, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reads one file; past `checkMs`, or when the file ends the worker, the file is refused and the worker replaced. */
  read(bytes: Uint8Array, limits: CredentialsCheckLimits): Promise<CredentialsCheck> {
    clearTimeout(this.idle);
    return new Promise<CredentialsCheck>((resolve) => {
      const done = (outcome: CredentialsCheck, keep: boolean) => {
        clearTimeout(timer);
        this.worker.off("message", onMessage);
        this.onStop = null;
        this.uses += 1;
        if (keep && this.uses < MAX_USES) {
          this.idle = setTimeout(() => void this.retire(), IDLE_MS);
          this.idle.unref();
        } else void this.retire();
        resolve(outcome);
      };
      const timer = setTimeout(
        () => done({ read: false, reason: "timed-out" }, false),
        limits.checkMs,
      );
      const onMessage = (message: WorkerAnswer) => {
        if ("ready" in message) return;
        done(
          "report" in message
            ? { read: true, report: message.report }
            : { read: false, reason: message.refused },
          true,
        );
      };
      // Whatever ends the worker while it reads came of the file: the file is refused, never a 500.
      this.onStop = (error) =>
        done(
          {
            read: false,
            reason: error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "out-of-memory" : "too-complex",
          },
          false,
        );
      this.worker.on("message", onMessage);
      // A copy the worker owns: the caller's buffer stays usable.
      const copy = new Uint8Array(bytes);
      this.worker.postMessage({ bytes: copy, maxManifestBytes: limits.maxManifestBytes }, [
        copy.buffer,
      ]);
    });
  }

  private async retire() {
    if (kept === this) kept = undefined;
    await this.end();
  }

  async end(): Promise<void> {
    clearTimeout(this.idle);
    this.ended = true;
    this.onStop = null;
    await this.worker.terminate();
  }
}
