import { sql } from "kysely";
import { getDb } from "~/infra/db.server";
import type { DB } from "~/infra/db.server";
import { DATABASE_RETRY_AFTER_SECONDS } from "~/infra/database-errors.server";
import { jsonResponse } from "~/web/http.server";

/** How long the database gets to answer `select 1` before the check says it is down. */
export const HEALTH_DATABASE_TIMEOUT_MS = 3_000;

/**
 * Liveness, the container's health check, in every role: the process answers
 * and the database reads (without it no role can do anything; the pool
 * reconnects by itself, so this is also what tells the database came back).
 * It does not ask the file store: a store that is down makes the process
 * unready (`/readyz`, readiness.server.ts), not dead. The database is read
 * (`select 1` through the pool, on SQLite or PostgreSQL). A database that does
 * not answer within HEALTH_DATABASE_TIMEOUT_MS (a server that is down, a
 * network that drops packets) is reported unhealthy, 503, rather than leaving
 * the check hanging past the platform's own timeout.
 */
export async function healthResponse(
  db: DB = getDb(),
  timeoutMs = HEALTH_DATABASE_TIMEOUT_MS,
): Promise<Response> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer from the database within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([sql`select 1`.execute(db), timedOut]);
    return jsonResponse({ status: "ok" });
  } catch (error) {
    console.warn(
      "Health check failed: database unavailable:",
      error instanceof Error ? error.message : String(error),
    );
    return jsonResponse(
      { status: "error", message: "Database unavailable" },
      {
        status: 503,
        headers: {
          "Cache-Control": "no-store",
          "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS),
        },
      },
    );
  } finally {
    clearTimeout(timer);
  }
}
