import fsp from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { newId } from "~/infra/ids.server";
import {
  mailFields,
  type MailMessage,
  type MailTransport,
} from "~/infra/mail/mail-transport.server";
import { recipientTag } from "~/infra/mail/recipient-in-logs.server";

/**
 * Keeps each message as a complete RFC 5322 file (CRLF line ends, MIME parts
 * and encodings as SMTP would carry them) under `dir`, named
 * `<ISO time, ':' as '-'>-<id>.eml`, and logs one line naming the file, the
 * recipient's tag (recipientTag: never the address) and the subject. Any mail program opens an .eml file.
 *
 * A file is written under a hidden temporary name and renamed into place, so
 * an .eml file in the outbox is always whole. Files are readable by the owner
 * only: a message may carry a sign-in or download link.
 */
export interface OutboxOptions {
  dir: string;
  now?: () => Date;
  log?: (line: string) => void;
}

export function outboxFileName(at: Date, id: string): string {
  return `${at.toISOString().replace(/:/g, "-")}-${id}.eml`;
}

export function createOutboxTransport(options: OutboxOptions): MailTransport {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.log(line));
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "windows",
  });
  return {
    id: "outbox",
    async send(message: MailMessage, sendOptions: { signal?: AbortSignal } = {}) {
      const at = now();
      const info = await composer.sendMail({
        ...mailFields(message),
        date: at,
        signal: sendOptions.signal,
      });
      const data = info.message;
      if (!Buffer.isBuffer(data))
        throw new Error("The outbox expected the composed message as a buffer");
      await fsp.mkdir(options.dir, { recursive: true, mode: 0o700 });
      const name = outboxFileName(at, newId());
      const file = path.join(options.dir, name);
      const temporary = path.join(options.dir, `.${name}.${process.pid}.partial`);
      try {
        await fsp.writeFile(temporary, data, { mode: 0o600, flag: "wx" });
        await fsp.rename(temporary, file);
      } catch (error) {
        await fsp.rm(temporary, { force: true });
        throw error;
      }
      log(
        `Mail to ${recipientTag(message.to)} (${JSON.stringify(message.subject)}) written to ${file}`,
      );
      return { messageId: info.messageId };
    },
  };
}
