import { describe, expect, it } from "vitest";
import { selectMailTransport } from "~/infra/mail/select-mail-transport.server";

describe("selectMailTransport", () => {
  it("sends through SMTP when SMTP_URL is set, else keeps mail in the outbox", () => {
    expect(
      selectMailTransport({
        SMTP_URL: "smtps://user:pass@smtp.example.com:465",
        outboxDir: "/tmp/outbox",
      }).id,
    ).toBe("smtp");
    expect(selectMailTransport({ SMTP_URL: undefined, outboxDir: "/tmp/outbox" }).id).toBe(
      "outbox",
    );
  });
});
