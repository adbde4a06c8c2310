import type { PublicUser } from "~/lib/accounts";

/** What the Admin Portal and GET /api/admin/* answer, and the copy they share. */

export interface AdminStats {
  totalUsers: number;
  activeUsers: number;
  totalImages: number;
  /** Dollars: the sum of the platform's fees in the earnings ledger, less their part of refunds. */
  platformRevenue: number;
}

/** A user as the User Management table shows it: the public fields and the admin's figures. */
export interface AdminUser extends Omit<PublicUser, "isAdmin"> {
  banned: boolean;
  /** Originals uploaded by the user. */
  imageCount: number;
  /** Dollars: the user's creator share in the earnings ledger, less what refunds took back. */
  earnings: number;
  /** When the account was erased (its row is then a tombstone); absent or null while it lives. */
  erasedAt?: string | null;
}

export type UserStatusAction = "ban" | "unban";

export type { AuditEntry, AuditPage } from "~/features/audit/types";

/** Access Denied sends the visitor to / after this delay; the Admin Portal's fixed copy. */
export const ADMIN_REDIRECT_DELAY_MS = 1000;
export const ACCESS_DENIED = {
  title: "Access Denied",
  description: "You don't have permission to view this page.",
};
export const STATUS_UPDATE_FAILED = {
  title: "Error",
  description: "Failed to update user status.",
};
export const ADMIN_SUBTITLE = "Manage users and monitor platform activity";
/** The URL parameter that opens the ban confirmation (?ban=<user id>). */
export const BAN_PARAM = "ban";
/** ?erase=<id> opens the erasure confirmation for that user. */
export const ERASE_PARAM = "erase";
/** What the ban confirmation says a ban does. */
export const BAN_CONSEQUENCES =
  "They will be signed out everywhere, can no longer sign in, and their listings are hidden from the marketplace. You can unban them later.";

export function fullName(user: Pick<AdminUser, "firstName" | "lastName" | "email">): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

/** "$1,234.50" for a dollar amount. */
export function formatDollars(dollars: number): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(dollars);
}
