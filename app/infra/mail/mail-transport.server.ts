/**
 * How a message leaves the app. A transport takes a whole message, sender
 * included, and either hands it on (SMTP) or keeps it (the outbox); it knows
 * nothing of jobs or templates. select-mail-transport.server.ts picks one.
 */

export interface MailMessage {
  /** One RFC 5322 mailbox, e.g. `Selfie Studio <studio@example.com>`. */
  from: string;
  /** One RFC 5322 mailbox. */
  to: string;
  /** Where a reply goes (Reply-To, one mailbox): the support address, since the sender takes no mail. */
  replyTo?: string;
  subject: string;
  /** The plain-text part. */
  text: string;
  /** The HTML part. */
  html: string;
  /** Extra header fields (e.g. List-Unsubscribe). */
  headers?: Record<string, string>;
}

/** The message's own fields, picked by name, as a transport hands them to nodemailer's sendMail. */
export function mailFields(message: MailMessage): MailMessage {
  const { from, to, replyTo, subject, text, html, headers } = message;
  return { from, to, replyTo, subject, text, html, headers };
}

export interface MailTransport {
  readonly id: "smtp" | "outbox";
  /** Sends one message; answers its Message-ID when the transport knows it. Rejects when the message did not go. */
  send(message: MailMessage, options?: { signal?: AbortSignal }): Promise<{ messageId?: string }>;
}

/**
 * A message the transport could not hand on. `retryable` is false when the
 * mail server refused it for good (a 5xx answer: sending it again would be
 * refused again), true for what may pass (no connection, a timeout, a 4xx).
 */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The refusal is about our setup (the sender, or the login), not this message: every message will fail alike. */
    readonly setup: MailSetupProblem | null = null,
  ) {
    super(message);
    this.name = "MailDeliveryError";
  }
}

/**
 * A refusal that stops all mail, not just one message: the server refused the
 * sender (MAIL_FROM not verified with the provider: 550/553/554 "sender not
 * verified" and the like) or the login (535, SMTP_URL's user and password).
 */
export type MailSetupProblem = "sender" | "auth";

/** How such a refusal's reason starts, so the stored reason (jobs.last_error) still says which it was. */
export const MAIL_SETUP_PREFIX: Record<MailSetupProblem, string> = {
  sender: "The mail server refused the sender (MAIL_FROM)",
  auth: "The mail server refused the login (SMTP_URL's user and password)",
};

/** Which setup problem a stored reason names, if any. */
export function mailSetupProblemOf(reason: string | null | undefined): MailSetupProblem | null {
  if (!reason) return null;
  if (reason.startsWith(MAIL_SETUP_PREFIX.sender)) return "sender";
  if (reason.startsWith(MAIL_SETUP_PREFIX.auth)) return "auth";
  return null;
}
