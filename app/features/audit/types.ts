/** One row of the audit log as the admin reads it. */
export interface AuditEntry {
  id: number;
  /** A user id, or `stripe` for what the payment provider reported. */
  actorId: string;
  /** The actor's email, while the actor is a user that exists. */
  actorEmail: string | null;
  action: string;
  /** The user or order acted on. */
  subjectId: string | null;
  detail: Record<string, unknown> | null;
  createdAt: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}
