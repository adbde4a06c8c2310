/** A message the queue gave up on: whom it was for, its subject, and why it failed. */
export interface UndeliveredMail {
  id: string;
  to: string;
  subject: string;
  reason: string;
  /** The refusal was about the mail setup (the sender MAIL_FROM, or the SMTP login): all mail fails alike until it is fixed. */
  problem: "sender" | "auth" | null;
  attempts: number;
  failedAt: string;
}

/** Mail is blocked by its setup: the newest such refusal, with no message delivered since. */
export interface MailSetupAlert {
  problem: "sender" | "auth";
  reason: string;
  failedAt: string;
}
