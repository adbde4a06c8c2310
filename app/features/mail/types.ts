/** A message the queue gave up on: whom it was for, its subject, and why it failed. */
export interface UndeliveredMail {
  id: string;
  to: string;
  subject: string;
  reason: string;
  attempts: number;
  failedAt: string;
}
