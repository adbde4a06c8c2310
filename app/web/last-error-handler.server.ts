import type { NextFunction, Request, Response } from "express";
import { refuse } from "./body-guard.server";

export const UNEXPECTED_FAILURE_MESSAGE = "Something went wrong on our side. Please try again.";

/**
 * The last Express error handler: a failure no route answered (Remix answers
 * its own) is logged with its stack and answered 500 with a fixed message,
 * JSON on /api and a short page elsewhere, in every environment. Express's own
 * handler would render the stack, with the server's file paths, outside
 * production. A failure after the answer started closes the connection.
 */
export function lastErrorHandler() {
  // Express knows an error handler by its four parameters.
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    console.error(`${req.method} ${req.path} failed:`, error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    refuse(req, res, 500, UNEXPECTED_FAILURE_MESSAGE);
  };
}
