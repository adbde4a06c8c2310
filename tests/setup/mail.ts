import fs from "node:fs";
import path from "node:path";
import net from "node:net";
import type { AddressInfo } from "node:net";
import type { ParsedMail } from "mailparser";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { SMTPServerOptions } from "smtp-server";

/** Helpers for mail tests: a real SMTP server on an ephemeral port, and the outbox read back. */

export interface ReceivedMail {
  /** MAIL FROM and RCPT TO as the server saw them. */
  envelope: { from: string | null; to: string[] };
  /** The user name the client authenticated as, if it did. */
  user?: string;
  /** Whether the session ran over TLS. */
  secure: boolean;
  raw: Buffer;
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  port: number;
  received: ReceivedMail[];
  /** Resolves with the next message the server takes (or the one it already took and nobody waited for). */
  nextMail(): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * An SMTP server on 127.0.0.1 and a free port, plaintext (no STARTTLS) unless
 * `secure` is set, accepting AUTH only for `credentials` when given. `options`
 * may add refusals (onRcptTo, onMailFrom).
 */
export async function startSmtpServer(
  setup: {
    credentials?: { user: string; pass: string };
    options?: Partial<SMTPServerOptions>;
  } = {},
): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiting: ((mail: ReceivedMail) => void)[] = [];
  let unclaimed = 0;
  const deliver = (mail: ReceivedMail) => {
    received.push(mail);
    const waiter = waiting.shift();
    if (waiter) waiter(mail);
    else unclaimed += 1;
  };
  const server = new SMTPServer({
    logger: false,
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: !setup.credentials,
    onAuth(auth, _session, callback) {
      const expected = setup.credentials;
      if (expected && auth.username === expected.user && auth.password === expected.pass) {
        callback(null, { user: auth.username });
        return;
      }
      callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            deliver({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
                to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              },
              user: typeof session.user === "string" ? session.user : undefined,
              secure: session.secure === true,
              raw,
              parsed,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
    ...setup.options,
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    nextMail() {
      if (unclaimed > 0) {
        unclaimed -= 1;
        return Promise.resolve(received[received.length - 1 - unclaimed]);
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (taken from the system, then let go). */
export async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The .eml files in an outbox, oldest first (hidden temporary files left out). */
export function outboxFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => !name.startsWith(".") && name.endsWith(".eml"))
    .sort()
    .map((name) => path.join(dir, name));
}

/** Parses an .eml file as a mail program would. */
export async function readEml(file: string): Promise<ParsedMail> {
  return simpleParser(fs.readFileSync(file));
}

/** The address list of a parsed header as plain addresses. */
export function addressesOf(field: ParsedMail["to"] | ParsedMail["from"]): string[] {
  const lists = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return lists.flatMap((list) => list.value.map((entry) => entry.address ?? ""));
}
