import { sql } from "kysely";
import { getDb } from "~/infra/db.server";
import type { DB } from "~/infra/db.server";
import { DATABASE_RETRY_AFTER_SECONDS } from "~/infra/database-errors.server";
import { getFileStore } from "~/infra/file-store.server";
import { HEALTH_DATABASE_TIMEOUT_MS } from "~/web/health.server";
import { jsonResponse } from "~/web/http.server";

/** What readiness asks of the file store (the local volume's or object storage's). */
export interface ReachableStore {
  isReachable(): Promise<boolean>;
}

export interface ReadinessParts {
  db: DB;
  store: ReachableStore;
}

type PartState = "ok" | "unavailable";

/**
 * Readiness (`/readyz`): can this process serve a request that reads and
 * writes, now? The database answers `select 1` and the file store is
 * reachable, each within `timeoutMs`, checked at the same time. 200 with
 * `{status: "ok", database: "ok", files: "ok"}`, or 503 naming the part that
 * is down, so a load balancer sends traffic elsewhere while the process stays
 * alive (liveness, `/healthz`, does not ask the file store).
 */
export async function readinessResponse(
  parts: ReadinessParts = { db: getDb(), store: getFileStore() },
  timeoutMs = HEALTH_DATABASE_TIMEOUT_MS,
): Promise<Response> {
  const [database, files] = await Promise.all([
    stateOf(
      "database",
      within(
        sql`select 1`.execute(parts.db).then(() => true),
        timeoutMs,
      ),
    ),
    stateOf("file store", within(parts.store.isReachable(), timeoutMs)),
  ]);
  if (database === "ok" && files === "ok") {
    return jsonResponse({ status: "ok", database, files });
  }
  const down = [database !== "ok" && "Database", files !== "ok" && "file store"].filter(Boolean);
  const message =
    down.length === 2
      ? "Database and file store unavailable"
      : down[0] === "Database"
        ? "Database unavailable"
        : "File store unavailable";
  return jsonResponse(
    { status: "error", database, files, message },
    {
      status: 503,
      headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) },
    },
  );
}

async function stateOf(part: string, reachable: Promise<boolean>): Promise<PartState> {
  try {
    if (await reachable) return "ok";
    console.warn(`Readiness check failed: ${part} unreachable`);
  } catch (error) {
    console.warn(
      `Readiness check failed: ${part} unavailable:`,
      error instanceof Error ? error.message : String(error),
    );
  }
  return "unavailable";
}

/** `work`, or a rejection once `ms` have passed without its answer. */
async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
