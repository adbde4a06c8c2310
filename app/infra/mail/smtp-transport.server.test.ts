import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createSmtpTransport, smtpOptions } from "~/infra/mail/smtp-transport.server";
import { MailDeliveryError } from "~/infra/mail/mail-transport.server";
import type { TestSmtpServer } from "#tests/setup/mail";
import { addressesOf, closedPort, startSmtpServer } from "#tests/setup/mail";

const message = {
  from: "Selfie Studio <studio@example.com>",
  to: "buyer@example.com",
  subject: "Reset your password",
  text: "Open https://selfie.example/reset/abc within the hour.",
  html: '<p>Open <a href="https://selfie.example/reset/abc">this link</a> within the hour.</p>',
};

let server: TestSmtpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("the SMTP transport", () => {
  it("delivers to the server the URL names, logging in with the URL's credentials", async () => {
    server = await startSmtpServer({ credentials: { user: "studio", pass: "p@ss:word" } });
    const transport = createSmtpTransport(`smtp://studio:p%40ss%3Aword@127.0.0.1:${server.port}`);

    const sent = await transport.send({ ...message, headers: { "X-Selfie-Kind": "reset" } });
    const mail = await server.nextMail();

    expect(mail.user).toBe("studio");
    expect(mail.envelope).toEqual({ from: "studio@example.com", to: ["buyer@example.com"] });
    expect(addressesOf(mail.parsed.from)).toEqual(["studio@example.com"]);
    expect(mail.parsed.from?.value[0].name).toBe("Selfie Studio");
    expect(addressesOf(mail.parsed.to)).toEqual(["buyer@example.com"]);
    expect(mail.parsed.subject).toBe(message.subject);
    expect(mail.parsed.text?.trim()).toBe(message.text);
    expect(mail.parsed.html).toBe(message.html);
    expect(mail.parsed.headers.get("x-selfie-kind")).toBe("reset");
    expect(mail.parsed.messageId).toBe(sent.messageId);
  });

  it("speaks TLS from the start with smtps://", async () => {
    server = await startSmtpServer({ options: { secure: true } });
    // The test server presents smtp-server's built-in certificate, which no one vouches for.
    const transport = createSmtpTransport(
      `smtps://127.0.0.1:${server.port}?tls.rejectUnauthorized=false`,
    );
    await transport.send(message);
    const mail = await server.nextMail();
    expect(mail.secure).toBe(true);
    expect(mail.parsed.subject).toBe(message.subject);
  });

  it("refuses for good when the server refuses the message (5xx), and names the server's reason", async () => {
    server = await startSmtpServer({
      options: {
        onRcptTo(_address, _session, callback) {
          callback(Object.assign(new Error("No such mailbox"), { responseCode: 550 }));
        },
      },
    });
    const transport = createSmtpTransport(`smtp://127.0.0.1:${server.port}`);
    const error = await transport.send(message).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect((error as MailDeliveryError).retryable).toBe(false);
    expect((error as MailDeliveryError).message).toMatch(/^SMTP: .*No such mailbox/);
  });

  it("reports a wrong password without repeating it", async () => {
    server = await startSmtpServer({ credentials: { user: "studio", pass: "right" } });
    const transport = createSmtpTransport(`smtp://studio:wrong-secret@127.0.0.1:${server.port}`);
    const error = (await transport
      .send(message)
      .catch((caught: unknown) => caught)) as MailDeliveryError;
    expect(error).toBeInstanceOf(MailDeliveryError);
    // A setup problem (every message would fail alike): said first, and final.
    expect(error.message).toMatch(
      /^The mail server refused the login \(SMTP_URL's user and password\): SMTP: /,
    );
    expect(error).toMatchObject({ setup: "auth", retryable: false });
    expect(error.message).not.toContain("wrong-secret");
  });

  it("may try again when no server answers", async () => {
    const transport = createSmtpTransport(`smtp://127.0.0.1:${await closedPort()}`);
    const error = (await transport
      .send(message)
      .catch((caught: unknown) => caught)) as MailDeliveryError;
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/^SMTP: .*ECONNREFUSED/);
  });

  it("gives up on a server that never greets", async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    const { port } = silent.address() as AddressInfo;
    try {
      const transport = createSmtpTransport(`smtp://127.0.0.1:${port}`, { greetingTimeout: 200 });
      const error = (await transport
        .send(message)
        .catch((caught: unknown) => caught)) as MailDeliveryError;
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect(error.retryable).toBe(true);
      expect(error.message).toMatch(/greeting/i);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("sends credentials to another machine only over TLS", () => {
    expect(smtpOptions("smtp://user:pass@smtp.example.com:587").requireTLS).toBe(true);
    expect(smtpOptions("smtps://user:pass@smtp.example.com:465").requireTLS).toBe(false); // TLS from the start
    expect(smtpOptions("smtp://smtp.example.com:25").requireTLS).toBe(false); // nothing secret to send
    expect(smtpOptions("smtp://user:pass@localhost:1025").requireTLS).toBe(false);
    expect(smtpOptions("smtp://user:pass@127.0.0.1:1025").requireTLS).toBe(false);
  });

  it("refuses to log in over a connection the server will not encrypt", async () => {
    server = await startSmtpServer({ credentials: { user: "studio", pass: "secret" } });
    // The test server offers no STARTTLS; requireTLS (what credentials for another machine get) is forced through the URL.
    const transport = createSmtpTransport(
      `smtp://studio:secret@127.0.0.1:${server.port}?requireTLS=true`,
    );
    const error = (await transport
      .send(message)
      .catch((caught: unknown) => caught)) as MailDeliveryError;
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(error.message).toMatch(/^SMTP: .*STARTTLS/i);
    expect(server.received).toEqual([]);
  });
});
