/** One of the user's web sessions or API tokens as GET /api/account/sessions answers it and the Security tab shows it. */
export interface SessionView {
  /** The public id (random; never the stored hash of the secret). */
  id: string;
  kind: "web" | "token";
  createdAt: string;
  /** When it was last used (to a few minutes); null for a token never used. */
  lastUsedAt: string | null;
  /** The User-Agent it was made from, cut short; null when none was sent. */
  userAgent: string | null;
  /** Whether it is the one the call was made with. */
  current: boolean;
}

/** The query parameter that opens a Revoke confirmation without JavaScript (?revoke=<id>, or ?revoke=others). */
export const REVOKE_PARAM = "revoke";
/** The ?revoke= value of "Sign out everywhere else". */
export const REVOKE_OTHERS = "others";
