/** Account rules the screens and the server share. */

export const SUPER_ADMIN_ID = "super-admin";
/** What the sign-in form checks of a password (it checks nothing more: old passwords may be shorter than new ones). */
export const MIN_PASSWORD_LENGTH = 6;
/** A password chosen now (registration, reset, the admin's Create user, the user scripts) has at least this many characters. */
export const NEW_PASSWORD_MIN_LENGTH = 8;
export const NEW_PASSWORD_TOO_SHORT = `Password must be at least ${NEW_PASSWORD_MIN_LENGTH} characters`;
/** A new password found in the list of common (breached) passwords. */
export const COMMON_PASSWORD =
  "This password is one of the most common and easy to guess. Please choose another.";

/** The waitlist's form: the Register tab, at the form (registration closed). */
export const WAITLIST_HREF = "/auth?tab=register#waitlist";

/** Where a sign-up button leads: the Register tab while registration is open, else the waitlist. */
export function signUpHref(registrationOpen: boolean): string {
  return registrationOpen ? "/auth?tab=register" : WAITLIST_HREF;
}

/** What a creator reads on a style or publication a ban called off. */
export const CANCELLED_BY_SUSPENSION = "Cancelled: this account has been suspended.";
/** What a style or publication called off by the account's erasure says (until the erasure removes it). */
export const CANCELLED_BY_ERASURE = "Cancelled: this account has been deleted.";

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

/** Where signing in leads when no other page was asked for: the creator's studio. */
export const DEFAULT_LANDING = "/dashboard";

/** Where a signed-in user goes from sign-in: the page asked for, else the super admin to /admin and everyone else to the studio. */
export function landingAfterSignIn(user: { id: string }, redirectTo: string): string {
  return redirectTo === DEFAULT_LANDING && isSuperAdmin(user) ? "/admin" : redirectTo;
}

/** The name the navigation shows: the first name, or else the email. */
export function displayName(user: Pick<PublicUser, "firstName" | "email">): string {
  return user.firstName.trim() || user.email;
}
