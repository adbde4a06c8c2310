import { apiNotFound } from "~/web/api-adapter.server";

/** Any /api path that does not exist: a JSON 404, never the HTML page. */
export const loader = () => apiNotFound();
export const action = () => apiNotFound();
