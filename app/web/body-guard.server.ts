import type { NextFunction, Request, Response } from "express";
import { FILE_TOO_LARGE } from "~/lib/limits";
import type { SameOriginExemption } from "~/web/same-origin.server";
import { isCrossSite, isSafeMethod } from "~/web/same-origin.server";
import type { BodyLimitFor } from "./body-limits.server";
import { declaredLength, hasBody } from "./body-limits.server";
import { requestHost } from "./remix-handler.server";
import { closeAfterAnswer, settleUnreadBody } from "./unread-body.server";
import { shortPageHtml } from "~/web/short-page.server";

/**
 * In front of every route, before a byte of the body is read:
 * 1. a cookie-carrying mutation from another site is refused (403) — the one
 *    same-origin check of every route, screens and /api alike (a bearer call
 *    and a signed webhook are exempt);
 * 2. a declared body past the route's limit is refused (413);
 * 3. a form or JSON body is read in full within its limit (413 past it, also
 *    when chunked), and handed to the route as `res.locals.body`.
 * Upload bodies pass on as a stream (the bridge counts them). Refusals are JSON
 * on /api and a short page elsewhere; the connection is left usable or closed
 * cleanly (unread-body.server.ts). The limits and the exemption are the site's,
 * from its /api route table (http-app.server.ts).
 */
export function bodyGuard(bodyLimitFor: BodyLimitFor, isExemptFromSameOrigin: SameOriginExemption) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req) && isSafeMethod(req.method)) return next();
    const limit = bodyLimitFor(req.path, req.get("Content-Type"));

    const exempt = isExemptFromSameOrigin(req.method, req.path, req.get("Authorization") ?? null);
    if (
      !exempt &&
      isCrossSite({
        method: req.method,
        header: (name) => req.get(name) ?? null,
        host: requestHost(req),
      })
    ) {
      settleUnreadBody(req, res, limit.bytes);
      return refuse(req, res, 403, "Cross-site request refused");
    }

    const declared = declaredLength(req);
    if (declared !== undefined && declared > limit.bytes) {
      if (limit.streamed) return next(); // the upload route answers with its own message, before reading
      closeAfterAnswer(req, res);
      return refuse(req, res, 413, tooLargeMessage(limit.bytes));
    }
    if (limit.streamed || !hasBody(req)) return next();

    const chunks: Buffer[] = [];
    let seen = 0;
    let over = false;
    const onData = (chunk: Buffer) => {
      seen += chunk.byteLength;
      if (seen > limit.bytes) {
        over = true;
        req.off("data", onData);
        req.off("end", onEnd);
        closeAfterAnswer(req, res);
        refuse(req, res, 413, tooLargeMessage(limit.bytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (over) return;
      res.locals.body = Buffer.concat(chunks, seen);
      next();
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", () => {}); // the client went away: nothing to answer
  };
}

function tooLargeMessage(limit: number) {
  return limit > 1024 * 1024
    ? FILE_TOO_LARGE.description
    : "The request is too large (at most 1 MB).";
}

const REFUSAL_TITLES: Record<number, string> = {
  403: "Request refused",
  405: "Method not allowed",
  413: "Request too large",
  500: "Something went wrong",
  503: "Back in a moment",
};

/** A refusal in the route's language: JSON on /api, a short page elsewhere. */
export function refuse(req: Request, res: Response, status: number, message: string) {
  res.status(status);
  res.setHeader("Cache-Control", "no-store");
  if (req.path === "/api" || req.path.startsWith("/api/")) {
    res.json({ message });
    return;
  }
  const title = REFUSAL_TITLES[status] ?? "Request failed";
  res.type("html").send(shortPageHtml(title, [message]));
}
