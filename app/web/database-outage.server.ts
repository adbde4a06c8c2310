import type { AppLoadContext } from "@remix-run/node";
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
} from "~/infra/database-errors.server";
import { databaseUnavailableJson } from "~/web/http.server";
import { shortPageHtml } from "~/web/short-page.server";

/**
 * A request that failed because the database could not be reached is answered
 * 503 with Retry-After, JSON on /api (and for Remix data requests), a short
 * page elsewhere, instead of the 500 a bug gets. Remix reports a loader's or
 * action's failure to the server entry's handleError with the request's load
 * context; `noteDatabaseOutage` marks that context, and the bridge to Remix
 * swaps the error answer for this one (`answerForOutage`).
 */
const failedOnDatabase = new WeakSet<object>();

/** Marks the request's context when `error` is the database being unreachable; says whether it was. */
export function noteDatabaseOutage(context: AppLoadContext | undefined, error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  if (context) failedOnDatabase.add(context);
  return true;
}

/** The answer to send instead of `response` when the request failed on an unreachable database. */
export function answerForOutage(
  context: AppLoadContext,
  url: string,
  response: Response,
): Response | undefined {
  if (!failedOnDatabase.has(context) || response.status < 500) return undefined;
  void response.body?.cancel().catch(() => undefined);
  return databaseUnavailableAnswer(url);
}

export function databaseUnavailableAnswer(url: string): Response {
  const { pathname, searchParams } = new URL(url, "http://localhost");
  if (pathname === "/api" || pathname.startsWith("/api/") || searchParams.has("_data"))
    return databaseUnavailableJson();
  return new Response(
    shortPageHtml("Back in a moment", [
      DATABASE_UNAVAILABLE_MESSAGE,
      "This page will work again as soon as the database answers.",
    ]),
    {
      status: 503,
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Robots-Tag": "noindex",
        "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS),
      },
    },
  );
}
