import { Link, useFetcher, useLocation } from "@remix-run/react";
import type { AdminUser } from "~/features/admin/types";
import { BAN_PARAM, fullName } from "~/features/admin/types";
import { isSuperAdmin } from "~/lib/accounts";
import { adminHref } from "~/features/admin/components/admin-links";

const BAN_CLASS = "btn border border-red-300 bg-white px-3 py-1.5 text-red-700 hover:bg-red-50";
const UNBAN_CLASS =
  "btn border border-emerald-300 bg-white px-3 py-1.5 text-emerald-800 hover:bg-emerald-50";

/**
 * Ban / Unban. Ban asks first: it links to ?ban=<id>, which opens the ban
 * confirmation (a dialog with JavaScript, a server-rendered panel without).
 * Unban is one click: a POST form (works without JavaScript) that, with
 * JavaScript, submits in the background and is disabled while pending. The
 * super admin and erased accounts have no toggle. The action answers with a redirect and a toast.
 */
export function UserStatusToggle({ user }: { user: AdminUser }) {
  const fetcher = useFetcher({ key: `user-status-${user.id}` });
  const location = useLocation();
  if (isSuperAdmin(user)) return null;
  // An erased account cannot be banned or unbanned (the server refuses too).
  if (user.erasedAt) return <span className="text-sm text-slate-500">Erased</span>;
  const name = fullName(user);
  if (!user.banned) {
    return (
      <Link
        to={adminHref(location.search, { [BAN_PARAM]: user.id })}
        preventScrollReset
        aria-label={`Ban ${name}`}
        data-testid="user-status-toggle"
        className={BAN_CLASS}
      >
        Ban
      </Link>
    );
  }
  const pending = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={`/admin${location.search}`}>
      <input type="hidden" name="userId" value={user.id} />
      <button
        type="submit"
        name="intent"
        value="unban"
        disabled={pending}
        aria-label={`Unban ${name}`}
        data-testid="user-status-toggle"
        className={UNBAN_CLASS}
      >
        {pending ? "Unbanning..." : "Unban"}
      </button>
    </fetcher.Form>
  );
}
