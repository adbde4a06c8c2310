import type { ReactNode } from "react";
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from "@headlessui/react";
import { Link, useNavigate } from "@remix-run/react";
import { Avatar } from "~/ui/avatar";
import type { AdminUser } from "~/features/admin/types";
import { formatDollars, fullName } from "~/features/admin/types";
import { isSuperAdmin } from "~/lib/accounts";
import { CrownIcon } from "~/features/admin/components/crown-icon";
import { LocalDate } from "~/features/admin/components/local-date";
import { StatusBadge } from "~/features/admin/components/status-badge";
import { useHydrated } from "~/ui/use-hydrated";

/**
 * 'User Details'. The dialog is addressed by the URL
 * (?view=<id>): without JavaScript the server renders it as a plain modal
 * panel with a Close link; once hydrated it is a Headless UI Dialog (focus
 * trap, Escape and backdrop click close it).
 */
export function UserDetailsDialog({ user, closeHref }: { user: AdminUser; closeHref: string }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const close = () => navigate(closeHref, { preventScrollReset: true });

  if (!hydrated) {
    return (
      <div className="relative z-50">
        <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
        <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-4">
          <div
            role="dialog"
            aria-modal="true"
            aria-labelledby="user-details-title"
            className="card w-full max-w-md p-6 shadow-xl"
            data-testid="user-details-dialog"
          >
            <h2 id="user-details-title" className="text-lg font-semibold text-slate-900">
              User Details
            </h2>
            <UserDetails user={user} />
            <div className="mt-6 flex justify-end">
              <Link to={closeHref} className="btn-secondary" preventScrollReset>
                Close
              </Link>
            </div>
          </div>
        </div>
      </div>
    );
  }

  return (
    <Dialog open onClose={close} className="fixed inset-0 z-50 overflow-y-auto">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/50" />
      <div className="relative flex min-h-full items-center justify-center p-4">
        <DialogPanel className="card w-full max-w-md p-6 shadow-xl" data-testid="user-details-dialog">
          <DialogTitle className="text-lg font-semibold text-slate-900">User Details</DialogTitle>
          <UserDetails user={user} />
          <div className="mt-6 flex justify-end">
            <button type="button" className="btn-secondary" onClick={close}>
              Close
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
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
            <StatusBadge banned={user.banned} />
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

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-lg bg-slate-50 p-3">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-sm font-medium text-slate-900">{children}</dd>
    </div>
  );
}
