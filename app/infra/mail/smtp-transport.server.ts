import nodemailer from "nodemailer";
import {
  mailFields,
  type MailMessage,
  type MailTransport,
} from "~/infra/mail/mail-transport.server";
import { MAIL_SETUP_PREFIX, MailDeliveryError } from "~/infra/mail/mail-transport.server";

export interface SmtpTimeouts {
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
  dnsTimeout: number;
}

/**
 * They keep a dead or silent server from holding a job: a connection must open
 * within 10 s, the server must greet within 10 s, a connection idle for 30 s
 * is given up, and a DNS lookup may take 10 s.
 */
export const SMTP_TIMEOUTS: SmtpTimeouts = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
  dnsTimeout: 10_000,
};

/**
 * Sends through the SMTP server a URL names (SMTP_URL):
 * smtps://user:pass@smtp.example.com:465 speaks TLS from the start,
 * smtp://…:587 upgrades with STARTTLS when the server offers it; user and
 * password are percent-decoded from the URL, and nodemailer's SMTP options may
 * ride in its query (e.g. ?tls.servername=…). One connection per message (mail
 * here is a trickle: receipts, resets). nodemailer's own logging stays off, so
 * nothing it would print (the AUTH exchange included) reaches the logs.
 */
export function createSmtpTransport(
  url: string,
  timeouts: Partial<SmtpTimeouts> = {},
): MailTransport {
  const transporter = nodemailer.createTransport(smtpOptions(url, timeouts));
  return {
    id: "smtp",
    async send(message: MailMessage, options: { signal?: AbortSignal } = {}) {
      try {
        const info = await transporter.sendMail({ ...mailFields(message), signal: options.signal });
        return { messageId: info.messageId };
      } catch (error) {
        throw deliveryError(error);
      }
    },
  };
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * nodemailer's options for a URL. An smtp:// URL that carries a user or
 * password to another machine requires STARTTLS (requireTLS), so the
 * credentials never cross the network in clear text; `?requireTLS=false` in
 * the URL turns that off for a relay that offers no TLS.
 */
export function smtpOptions(url: string, timeouts: Partial<SmtpTimeouts> = {}) {
  const parsed = new URL(url);
  const credentials = parsed.username !== "" || parsed.password !== "";
  const requireTLS = parsed.protocol === "smtp:" && credentials && !LOOPBACK.has(parsed.hostname);
  return { url, ...SMTP_TIMEOUTS, ...timeouts, requireTLS, logger: false, debug: false };
}

/** Words a provider uses when it refuses the sender rather than a recipient or the message. */
const SENDER_REFUSAL =
  /sender|from address|mail from|not verified|unverified|sendasdenied|not (?:allowed|authori[sz]ed|permitted) to send|send as/i;

/**
 * nodemailer's error as a MailDeliveryError: a 5xx answer is final, anything
 * else may pass. A refused login (535 and the other AUTH failures) or a refused
 * sender (a 5xx to MAIL FROM, or one whose text is about the sender, e.g. 553
 * "Sender address not verified" or 554 "Email address is not verified") is
 * marked as a setup problem and its reason says so first.
 */
function deliveryError(error: unknown): MailDeliveryError {
  if (!(error instanceof Error)) return new MailDeliveryError(`SMTP: ${String(error)}`, true);
  const { responseCode, code, command } = error as Error & {
    responseCode?: number;
    code?: string;
    command?: string;
  };
  const refused = typeof responseCode === "number" && responseCode >= 500 && responseCode < 600;
  const text = `SMTP: ${error.message}`;
  const authRefused =
    code === "EAUTH" ||
    responseCode === 535 ||
    responseCode === 534 ||
    responseCode === 538 ||
    (refused && /^AUTH\b/i.test(command ?? ""));
  if (authRefused)
    return new MailDeliveryError(`${MAIL_SETUP_PREFIX.auth}: ${text}`, false, "auth");
  const senderRefused =
    refused &&
    !/^RCPT\b/i.test(command ?? "") &&
    (/^MAIL\b/i.test(command ?? "") || SENDER_REFUSAL.test(error.message));
  if (senderRefused)
    return new MailDeliveryError(`${MAIL_SETUP_PREFIX.sender}: ${text}`, false, "sender");
  return new MailDeliveryError(text, !refused);
}
