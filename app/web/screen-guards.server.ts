import { json, redirect } from "@remix-run/node";
import type { UserRow } from "#db/schema";
import { isSuperAdmin } from "~/lib/accounts";
import { getWebUser } from "~/web/auth.server";

/** What an admin screen answers a signed-in user who is not the super admin (its ErrorBoundary shows "Access Denied"). */
const NOT_AN_ADMIN = "You don't have permission to view this page.";

export type ScreenAccess = "user" | "admin" | "optional";

interface GuardOptions<A extends ScreenAccess> {
  access: A;
  /** Where sign-in comes back to: the requested path and query unless given (say, the page a POST-only URL belongs to). */
  back?: string;
  /**
   * Where a signed-out visitor is sent instead of `/auth?redirectTo=<back>`:
   * the dashboard's forms send them where its page's script does
   * (`/api/login?redirectTo=%2Fdashboard`).
   */
  signIn?: string;
}

/** Where a signed-out visitor signs in, coming back to `back` afterwards. */
export function signInHref(back: string): string {
  return `/auth?redirectTo=${encodeURIComponent(back)}`;
}

/**
 * The one guard of a screen's loader and action:
 * - "user": a signed-out visitor is redirected to sign-in (and comes back here,
 *   or goes to `signIn` when given);
 * - "admin": the same, and a signed-in user who is not the super admin gets a
 *   403 before any admin data is read;
 * - "optional": the user when signed in, else null.
 */
export async function requireScreenUser(
  request: Request,
  options: GuardOptions<"user" | "admin">,
): Promise<UserRow>;
export async function requireScreenUser(
  request: Request,
  options: GuardOptions<"optional">,
): Promise<UserRow | null>;
export async function requireScreenUser(
  request: Request,
  { access, back, signIn }: GuardOptions<ScreenAccess>,
): Promise<UserRow | null> {
  const user = await getWebUser(request);
  if (access === "optional") return user;
  if (!user) {
    const url = new URL(request.url);
    throw redirect(signIn ?? signInHref(back ?? url.pathname + url.search));
  }
  if (access === "admin" && !isSuperAdmin(user))
    throw json({ message: NOT_AN_ADMIN }, { status: 403 });
  return user;
}
