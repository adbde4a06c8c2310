import { safeRedirect } from "~/lib/safe-redirect";
import type { ApiCall } from "~/web/api-router.server";

/** GET /api/login: the landing page's entry to sign-in; keeps a same-site redirectTo. */
export function loginRedirect({ request }: ApiCall): Response {
  const redirectTo = safeRedirect(
    new URL(request.url).searchParams.get("redirectTo"),
    "/dashboard",
  );
  const target =
    redirectTo === "/dashboard" ? "/auth" : `/auth?redirectTo=${encodeURIComponent(redirectTo)}`;
  return new Response(null, { status: 302, headers: { Location: target } });
}
