import { timingSafeEqual, createHash } from "node:crypto";
import type { RequestHandler } from "express";
import type { DB } from "~/infra/db.server";
import { metricsText } from "~/infra/metrics.server";

/**
 * GET /metrics: the Prometheus scrape, for a caller with
 * `Authorization: Bearer <METRICS_TOKEN>` only. Without the token, with a
 * wrong one, or when METRICS_TOKEN is unset, the path answers 404 as any
 * unknown path does: the public cannot tell it exists.
 */
export function metricsEndpoint({
  token,
  db,
}: {
  token: string | undefined;
  db: () => DB;
}): RequestHandler {
  const expected = token ? digest(token) : null;
  return (req, res, next) => {
    if (req.path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) return next();
    if (!expected || !presentsToken(req.get("Authorization"), expected)) return next();
    metricsText(db())
      .then(({ body, contentType }) => {
        res.setHeader("Content-Type", contentType);
        res.setHeader("Cache-Control", "no-store");
        res.status(200).send(req.method === "HEAD" ? undefined : body);
      })
      .catch(next);
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Compares digests of equal length in constant time, so the token's length and content leak nothing. */
function presentsToken(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  if (!match) return false;
  return timingSafeEqual(digest(match[1]), expected);
}
