import { healthResponse } from "~/web/health.server";

/** GET /healthz: liveness, the container's health check (app/web/health.server.ts). */
export const loader = () => healthResponse();
