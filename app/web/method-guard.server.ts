import type { NextFunction, Request, Response } from "express";
import { refuse } from "./body-guard.server";

/** The methods some route of the app takes; HEAD is answered as GET. */
export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
const SERVED = new Set<string>(SERVED_METHODS);

/**
 * Any other method (TRACE, CONNECT, OPTIONS, WebDAV's...) is answered 405 with
 * an Allow header before anything reads the request: JSON on /api, a short
 * page elsewhere. Some of them (TRACE, TRACK, CONNECT) could not even be
 * handed to Remix: the fetch Request refuses them.
 */
export function methodGuard() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SERVED.has(req.method)) return next();
    res.setHeader("Allow", SERVED_METHODS.join(", "));
    refuse(req, res, 405, "Method not allowed");
  };
}
