import type { UndeliveredMail } from "~/features/mail/types";
import { LocalDate } from "~/features/admin/components/local-date";
import { ScrollingTable, SectionCard } from "~/ui/data-table";

/**
 * The messages the mail queue gave up on, so an operator sees a broken mail
 * setup (a wrong SMTP_URL, a refused sender). Shown only when there are any.
 */
export function UndeliveredMailList({ messages }: { messages: readonly UndeliveredMail[] }) {
  if (messages.length === 0) return null;
  return (
    <SectionCard
      headingId="undelivered-mail-heading"
      heading="Undelivered mail"
      description={
        <p className="text-sm text-slate-600">
          Messages that could not be sent after every attempt, newest first. Check SMTP_URL and
          MAIL_FROM.
        </p>
      }
      testId="undelivered-mail"
    >
      <ScrollingTable
        columns={["Failed", "To", "Subject", "Reason"]}
        headClassName="bg-slate-50 text-left text-slate-600"
      >
        {messages.map((message) => (
          <tr key={message.id}>
            <td className="whitespace-nowrap px-5 py-3 text-slate-700">
              <LocalDate iso={message.failedAt} />
            </td>
            <td className="px-5 py-3 text-slate-900">{message.to}</td>
            <td className="px-5 py-3 text-slate-900">{message.subject}</td>
            <td className="px-5 py-3 text-slate-700">
              {message.problem ? (
                <strong className="mr-1 font-semibold text-red-800">
                  {message.problem === "sender"
                    ? "Sender refused (check MAIL_FROM):"
                    : "Login refused (check SMTP_URL):"}
                </strong>
              ) : null}
              {message.reason} ({message.attempts} {message.attempts === 1 ? "attempt" : "attempts"}
              )
            </td>
          </tr>
        ))}
      </ScrollingTable>
    </SectionCard>
  );
}
