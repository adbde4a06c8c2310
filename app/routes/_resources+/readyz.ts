import { readinessResponse } from "~/web/readiness.server";

/** GET /readyz: readiness, the database and the file store reachable (app/web/readiness.server.ts). */
export const loader = () => readinessResponse();
