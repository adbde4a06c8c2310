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
  subject: string;
  /** The plain-text part. */
  text: string;
  /** The HTML part. */
  html: string;
  /** Extra header fields (e.g. List-Unsubscribe). */
  headers?: Record<string, string>;
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
  ) {
    super(message);
    this.name = "MailDeliveryError";
  }
}
