import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createOutboxTransport, outboxFileName } from "~/infra/mail/outbox-transport.server";
import { recipientTag } from "~/infra/mail/recipient-in-logs.server";
import { addressesOf, outboxFiles, readEml } from "#tests/setup/mail";

const tempDir = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "selfie-outbox-")), "outbox");

const message = {
  from: "Selfie Studio <studio@example.com>",
  to: "Ana Buyer <buyer@example.com>",
  subject: "Your receipt for “Neon me” – order 42",
  text: "Thank you for your order.\nDownload: https://selfie.example/downloads/abc",
  html: '<p>Thank you for your order.</p><p><a href="https://selfie.example/downloads/abc">Download</a></p>',
};

describe("the outbox transport", () => {
  it("writes the whole message as an .eml file a mail program can read", async () => {
    const dir = tempDir();
    const lines: string[] = [];
    const at = new Date("2026-11-22T10:15:30.123Z");
    const transport = createOutboxTransport({
      dir,
      now: () => at,
      log: (line) => lines.push(line),
    });

    const sent = await transport.send({ ...message, headers: { "X-Selfie-Kind": "receipt" } });

    const files = outboxFiles(dir);
    expect(files).toHaveLength(1);
    expect(path.basename(files[0])).toMatch(/^2026-11-22T10-15-30\.123Z-[A-Za-z0-9_-]+\.eml$/);
    expect(fs.readdirSync(dir)).toHaveLength(1); // no temporary file left behind
    expect(fs.statSync(files[0]).mode & 0o077).toBe(0);

    const raw = fs.readFileSync(files[0], "utf8");
    expect(raw).toContain("\r\n");
    expect(raw.split("\r\n\r\n")[0]).toMatch(/^MIME-Version: 1\.0$/m);

    const parsed = await readEml(files[0]);
    expect(addressesOf(parsed.from)).toEqual(["studio@example.com"]);
    expect(parsed.from?.value[0].name).toBe("Selfie Studio");
    expect(addressesOf(parsed.to)).toEqual(["buyer@example.com"]);
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.text?.trim()).toBe(message.text);
    expect(parsed.html).toBe(message.html);
    expect(parsed.date?.toISOString()).toBe("2026-11-22T10:15:30.000Z");
    expect(parsed.headers.get("x-selfie-kind")).toBe("receipt");
    expect(parsed.messageId).toBe(sent.messageId);

    // Whom it was for by a short keyed hash, never the address nor the name.
    expect(lines).toEqual([
      `Mail to ${recipientTag(message.to)} (${JSON.stringify(message.subject)}) written to ${files[0]}`,
    ]);
    expect(lines[0]).toMatch(/Mail to recipient#[A-Za-z0-9_-]{10} /);
    expect(lines[0]).not.toContain("buyer@example.com");
    expect(lines[0]).not.toContain("Ana Buyer");
  });

  it("gives every message its own file, even at the same instant", async () => {
    const dir = tempDir();
    const at = new Date("2026-11-22T10:15:30.000Z");
    const transport = createOutboxTransport({ dir, now: () => at, log: () => {} });
    await Promise.all([transport.send(message), transport.send({ ...message, subject: "Second" })]);
    const subjects = await Promise.all(
      outboxFiles(dir).map(async (file) => (await readEml(file)).subject),
    );
    expect(subjects.sort()).toEqual(["Second", message.subject].sort());
  });

  it("names files by time so a directory listing is in order, with no ':' in the name", () => {
    expect(outboxFileName(new Date("2026-01-02T03:04:05.006Z"), "abc")).toBe(
      "2026-01-02T03-04-05.006Z-abc.eml",
    );
  });
});
