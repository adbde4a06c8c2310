import type { NextFunction, Request, Response } from "express";
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  databaseUnavailableLine,
  isDatabaseUnavailable,
} from "~/infra/database-errors.server";
import { refuse } from "./body-guard.server";

export const UNEXPECTED_FAILURE_MESSAGE = "Something went wrong on our side. Please try again.";

/**
 * The last Express error handler: a failure no route answered (Remix answers
 * its own) is logged with its stack and answered 500 with a fixed message,
 * JSON on /api and a short page elsewhere, in every environment. Express's own
 * handler would render the stack, with the server's file paths, outside
 * production. A failure after the answer started closes the connection. An
 * unreachable database is answered 503 with Retry-After instead.
 */
export function lastErrorHandler() {
  // Express knows an error handler by its four parameters.
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const outage = isDatabaseUnavailable(error);
    if (outage) console.warn(`${req.method} ${req.path}: ${databaseUnavailableLine(error)}`);
    else console.error(`${req.method} ${req.path} failed:`, error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (outage) {
      res.setHeader("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
      refuse(req, res, 503, DATABASE_UNAVAILABLE_MESSAGE);
      return;
    }
    refuse(req, res, 500, UNEXPECTED_FAILURE_MESSAGE);
  };
}
