import { useFetcher, useLocation } from "@remix-run/react";
import type { AdminUser } from "~/features/admin/types";
import { fullName } from "~/features/admin/types";
import { isSuperAdmin } from "~/lib/accounts";

/**
 * Ban / Unban: a POST form (works without JavaScript). With JavaScript it
 * submits in the background and is disabled while the request is pending. The
 * super admin has no toggle. The action answers with a redirect and a toast.
 */
export function UserStatusToggle({ user }: { user: AdminUser }) {
  const fetcher = useFetcher({ key: `user-status-${user.id}` });
  const location = useLocation();
  if (isSuperAdmin(user)) return null;
  const pending = fetcher.state !== "idle";
  const verb = user.banned ? "Unban" : "Ban";
  return (
    <fetcher.Form method="post" action={`/admin${location.search}`}>
      <input type="hidden" name="userId" value={user.id} />
      <button
        type="submit"
        name="intent"
        value={user.banned ? "unban" : "ban"}
        disabled={pending}
        aria-label={`${verb} ${fullName(user)}`}
        data-testid="user-status-toggle"
        className={
          user.banned
            ? "btn border border-emerald-300 bg-white px-3 py-1.5 text-emerald-800 hover:bg-emerald-50"
            : "btn border border-red-300 bg-white px-3 py-1.5 text-red-700 hover:bg-red-50"
        }
      >
        {pending ? (user.banned ? "Unbanning..." : "Banning...") : verb}
      </button>
    </fetcher.Form>
  );
}
