import type { LoaderFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/lib/safe-redirect";
import { apiMethodNotAllowed } from "~/web/api-adapter.server";

/** GET /api/login: the landing page's entry to sign-in; keeps a same-site redirectTo. */
export function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/dashboard");
  const target = redirectTo === "/dashboard" ? "/auth" : `/auth?redirectTo=${encodeURIComponent(redirectTo)}`;
  return new Response(null, { status: 302, headers: { Location: target } });
}

export const action = () => apiMethodNotAllowed("GET");
