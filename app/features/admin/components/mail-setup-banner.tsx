import type { MailSetupAlert } from "~/features/mail/types";
import { LocalDate } from "~/features/admin/components/local-date";

const WHAT_TO_DO: Record<MailSetupAlert["problem"], { title: string; fix: string }> = {
  sender: {
    title: "Mail is not going out: the mail server refuses the sender",
    fix: "Set MAIL_FROM to an address your mail provider has verified (its domain set up with the provider), then restart the server. Receipts and password resets fail until then.",
  },
  auth: {
    title: "Mail is not going out: the mail server refuses the login",
    fix: "Check the user and password in SMTP_URL (many providers want an API key or app password; Microsoft 365 ends basic SMTP authentication at the end of 2026), then restart the server. Receipts and password resets fail until then.",
  },
};

/** The admin page's warning when mail is blocked by its setup, above everything else. */
export function MailSetupBanner({ alert }: { alert: MailSetupAlert | null }) {
  if (!alert) return null;
  const text = WHAT_TO_DO[alert.problem];
  return (
    <div
      role="alert"
      className="mt-6 rounded-lg border border-red-300 bg-red-50 p-4 text-red-900"
      data-testid="mail-setup-banner"
    >
      <p className="font-semibold">{text.title}</p>
      <p className="mt-1 text-sm">{text.fix}</p>
      <p className="mt-2 break-words text-sm text-red-800">
        Last refusal (<LocalDate iso={alert.failedAt} />
        ): {alert.reason}
      </p>
    </div>
  );
}
