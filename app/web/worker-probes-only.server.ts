import type { NextFunction, Request, Response } from "express";
import { refuse } from "./body-guard.server";

/** The only paths a worker process (ROLE=worker) answers: liveness and readiness. */
export const WORKER_PATHS: readonly string[] = ["/healthz", "/readyz"];

/**
 * In a worker process, every path but the probes is answered 404 before
 * anything else runs (no page, no API, no file): the worker serves no users,
 * it only tells the platform that it is alive and ready.
 */
export function workerProbesOnly() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (WORKER_PATHS.includes(req.path)) return next();
    refuse(req, res, 404, "Not found: this process runs jobs and serves no pages");
  };
}
