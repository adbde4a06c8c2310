import type { LoaderFunctionArgs } from "@remix-run/node";
import { mediaResponse } from "~/web/media.server";

/** GET /media/{key}: a stored file, public or behind a signed link (app/web/media.server.ts). */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  mediaResponse(request, params["*"] ?? "");
