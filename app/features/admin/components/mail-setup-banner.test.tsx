// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { MailSetupBanner } from "~/features/admin/components/mail-setup-banner";
import { UndeliveredMailList } from "~/features/admin/components/undelivered-mail-list";

afterEach(cleanup);

describe("the admin's mail warnings", () => {
  it("a refused sender is an alert that names MAIL_FROM and the server's answer", () => {
    render(
      <MailSetupBanner
        alert={{
          problem: "sender",
          reason:
            "The mail server refused the sender (MAIL_FROM): SMTP: 553 Sender address not verified",
          failedAt: "2026-11-26T10:00:00.000Z",
        }}
      />,
    );
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("Mail is not going out: the mail server refuses the sender");
    expect(alert).toHaveTextContent("Set MAIL_FROM to an address your mail provider has verified");
    expect(alert).toHaveTextContent("553 Sender address not verified");
  });

  it("a refused login names SMTP_URL; no alert when mail is not blocked", () => {
    const { rerender } = render(
      <MailSetupBanner
        alert={{ problem: "auth", reason: "r", failedAt: "2026-11-26T10:00:00.000Z" }}
      />,
    );
    expect(screen.getByRole("alert")).toHaveTextContent("Check the user and password in SMTP_URL");
    rerender(<MailSetupBanner alert={null} />);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("the undelivered list marks a setup refusal before its reason", () => {
    render(
      <UndeliveredMailList
        messages={[
          {
            id: "1",
            to: "a@example.com",
            subject: "Receipt",
            reason: "The mail server refused the sender (MAIL_FROM): SMTP: 553",
            problem: "sender",
            attempts: 1,
            failedAt: "2026-11-26T10:00:00.000Z",
          },
          {
            id: "2",
            to: "b@example.com",
            subject: "Receipt",
            reason: "SMTP: 550 No such mailbox",
            problem: null,
            attempts: 1,
            failedAt: "2026-11-26T10:00:00.000Z",
          },
        ]}
      />,
    );
    const rows = screen.getAllByRole("row");
    expect(rows[1]).toHaveTextContent("Sender refused (check MAIL_FROM):");
    expect(rows[2]).not.toHaveTextContent("refused (check");
  });
});
