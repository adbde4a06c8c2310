import { sql } from "kysely";
import { getDb } from "~/infra/db.server";
import { jsonResponse } from "~/web/http.server";

/** The container's health check: the process answers and the database reads. */
export async function healthResponse(): Promise<Response> {
  try {
    await sql`select 1`.execute(getDb());
    return jsonResponse({ status: "ok" });
  } catch (error) {
    console.error("Health check failed:", error);
    return jsonResponse({ status: "error", message: "Database unavailable" }, { status: 503 });
  }
}
