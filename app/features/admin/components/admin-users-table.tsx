import { Link, useLocation } from "@remix-run/react";
import { Avatar } from "~/ui/avatar";
import type { AdminUser } from "~/features/admin/types";
import { formatDollars, fullName } from "~/features/admin/types";
import { isSuperAdmin } from "~/lib/accounts";
import { adminHref } from "~/features/admin/components/admin-links";
import { CrownIcon } from "~/features/admin/components/crown-icon";
import { LocalDate } from "~/features/admin/components/local-date";
import { StatusBadge } from "~/features/admin/components/status-badge";
import { UserStatusToggle } from "~/features/admin/components/user-status-toggle";
import { stackedTable as t } from "~/ui/stacked-table";
import { right, StackedTable } from "~/ui/data-table";
import { LineIcon } from "~/ui/line-icon";

const CELL = `${t.cell} sm:align-middle`;

/** The User Management table: one row per user. */
export function AdminUsersTable({ users, q }: { users: AdminUser[]; q: string }) {
  const location = useLocation();
  if (users.length === 0) {
    return (
      <p className="px-4 py-10 text-center text-sm text-slate-600" data-testid="no-users">
        {q ? `No users match "${q}".` : "No users yet."}
      </p>
    );
  }
  return (
    // Phones: one card per user (every column labelled). Wider: a table that scrolls sideways
    // until it fits, focusable so keyboard users can scroll it too.
    <StackedTable
      label="Users table"
      minWidth="sm:min-w-[56rem]"
      caption={<>Users{q ? ` matching "${q}"` : ""}</>}
      columns={[
        "User",
        "Email",
        "Joined",
        right("Images"),
        right("Earnings"),
        "Status",
        right("Actions"),
      ]}
      hintUntil="lg"
    >
      {users.map((user) => {
        const name = fullName(user);
        return (
          <tr key={user.id} data-testid="user-row" data-user-id={user.id} className={t.row}>
            <td className={`${t.lead} sm:align-middle`}>
              <div className="flex items-center gap-3">
                <Avatar src={user.profileImageUrl} name={name} size="h-10 w-10" />
                {/* A long name is cut with an ellipsis (its whole text in the title): it cannot widen the column and squeeze the email's. */}
                <div className="min-w-0 sm:max-w-[14rem]">
                  <p className="flex items-center gap-1.5 font-semibold text-slate-900">
                    <span className="truncate" title={name}>
                      {name}
                    </span>
                    {isSuperAdmin(user) ? <CrownIcon /> : null}
                  </p>
                  <p className="font-mono text-xs break-all text-slate-500">ID: {user.id}</p>
                </div>
              </div>
            </td>
            <td className={`${CELL} sm:max-w-[16rem]`} data-label="Email">
              {/* Wrapped, not truncated: a one-line email ran out of its cell under the Joined column. */}
              <span className="min-w-0 [overflow-wrap:anywhere]">{user.email}</span>
            </td>
            <td className={`${CELL} whitespace-nowrap`} data-label="Joined">
              <LocalDate iso={user.createdAt} />
            </td>
            <td className={`${CELL} sm:text-right tabular-nums`} data-label="Images">
              {user.imageCount.toLocaleString("en-US")}
            </td>
            <td className={`${CELL} sm:text-right tabular-nums`} data-label="Earnings">
              {formatDollars(user.earnings)}
            </td>
            <td className={CELL} data-label="Status">
              <StatusBadge banned={user.banned} />
            </td>
            <td className={`${t.actions} sm:align-middle`}>
              <div className="flex items-center gap-2 sm:justify-end">
                <Link
                  to={adminHref(location.search, { view: user.id })}
                  preventScrollReset
                  className="btn-ghost px-2.5 py-1.5"
                  aria-label={`View ${name}`}
                  data-testid="view-user"
                >
                  <LineIcon className="h-4 w-4" strokeWidth="1.7">
                    <path d="M1.5 10S4.5 4 10 4s8.5 6 8.5 6-3 6-8.5 6-8.5-6-8.5-6z" />
                    <circle cx="10" cy="10" r="2.5" />
                  </LineIcon>
                  <span>View</span>
                </Link>
                <UserStatusToggle user={user} />
              </div>
            </td>
          </tr>
        );
      })}
    </StackedTable>
  );
}
