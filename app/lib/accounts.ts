/** Account rules the screens and the server share. */

export const SUPER_ADMIN_ID = "super-admin";
export const MIN_PASSWORD_LENGTH = 6;

/** What a creator reads on a style or publication a ban called off. */
export const CANCELLED_BY_SUSPENSION = "Cancelled: this account has been suspended.";

/** The user as every client sees it (GET /api/token-user). */
export interface PublicUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  profileImageUrl: string | null;
  createdAt: string;
  isAdmin: boolean;
}

export function isSuperAdmin(user: { id: string } | null | undefined): boolean {
  return user?.id === SUPER_ADMIN_ID;
}

/** The name the navigation shows: the first name, or else the email. */
export function displayName(user: Pick<PublicUser, "firstName" | "email">): string {
  return user.firstName.trim() || user.email;
}
