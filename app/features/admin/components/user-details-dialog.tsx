import type { ReactNode } from "react";
import { Link, useLocation } from "@remix-run/react";
import { adminHref } from "~/features/admin/components/admin-links";
import { Avatar } from "~/ui/avatar";
import type { AdminUser } from "~/features/admin/types";
import { ERASE_PARAM, formatDollars, fullName } from "~/features/admin/types";
import { isSuperAdmin } from "~/lib/accounts";
import { CrownIcon } from "~/features/admin/components/crown-icon";
import { LocalDate } from "~/features/admin/components/local-date";
import { StatusBadge } from "~/features/admin/components/status-badge";
import { UrlDialog } from "~/ui/url-dialog";

/**
 * 'User Details'. The dialog is addressed by the URL
 * (?view=<id>): without JavaScript the server renders it as a plain modal
 * panel with a Close link; once hydrated it is a Headless UI Dialog (focus
 * trap, Escape and backdrop click close it).
 */
export function UserDetailsDialog({ user, closeHref }: { user: AdminUser; closeHref: string }) {
  return (
    <UrlDialog
      title="User Details"
      titleId="user-details-title"
      testId="user-details-dialog"
      closeHref={closeHref}
      cancelLabel="Close"
      width="max-w-md"
    >
      {(close) => (
        <>
          <UserDetails user={user} />
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <EraseLink user={user} />
            {close}
          </div>
        </>
      )}
    </UrlDialog>
  );
}

function UserDetails({ user }: { user: AdminUser }) {
  const name = fullName(user);
  return (
    <div data-testid="user-details">
      <div className="mt-5 flex items-center gap-4">
        <Avatar src={user.profileImageUrl} name={name} size="h-16 w-16 text-lg" />
        <div className="min-w-0">
          <p className="flex items-center gap-1.5 text-base font-semibold text-slate-900">
            <span className="truncate">{name}</span>
            {isSuperAdmin(user) ? <CrownIcon /> : null}
          </p>
          <p className="truncate text-sm text-slate-600">{user.email}</p>
          <div className="mt-1">
            {user.erasedAt ? (
              <span className="inline-flex rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-700">
                Erased
              </span>
            ) : (
              <StatusBadge banned={user.banned} />
            )}
          </div>
        </div>
      </div>
      <dl className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Detail label="User ID">
          <span className="font-mono text-xs break-all">{user.id}</span>
        </Detail>
        <Detail label="Joined Date">
          <LocalDate iso={user.createdAt} />
        </Detail>
        <Detail label="Total Images">{user.imageCount.toLocaleString("en-US")}</Detail>
        <Detail label="Total Earnings">{formatDollars(user.earnings)}</Detail>
      </dl>
    </div>
  );
}

/** "Erase account…" opens the erasure confirmation (?erase=<id>); not for the super admin or an account already erased. */
function EraseLink({ user }: { user: AdminUser }) {
  const location = useLocation();
  if (isSuperAdmin(user) || user.erasedAt) return null;
  return (
    <Link
      to={adminHref(location.search, { [ERASE_PARAM]: user.id, view: null })}
      preventScrollReset
      className="btn border border-red-300 bg-white text-red-700 hover:bg-red-50"
      data-testid="erase-user-link"
    >
      Erase account…
    </Link>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-lg bg-slate-50 p-3">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-sm font-medium text-slate-900">{children}</dd>
    </div>
  );
}
