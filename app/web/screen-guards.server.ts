import { redirect } from "@remix-run/node";
import type { UserRow } from "#db/schema";
import { getWebUser } from "~/web/auth.server";

/**
 * For screens only signed-in users may see: a signed-out visitor goes to
 * sign-in through /api/login and comes back here afterwards.
 */
export async function requireWebUser(request: Request): Promise<UserRow> {
  const user = await getWebUser(request);
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/api/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return user;
}
