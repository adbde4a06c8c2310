import type { UndeliveredMail } from "~/features/mail/types";
import { LocalDate } from "~/features/admin/components/local-date";
import { HeaderCells } from "~/ui/data-table";

/**
 * The messages the mail queue gave up on, so an operator sees a broken mail
 * setup (a wrong SMTP_URL, a refused sender). Shown only when there are any.
 */
export function UndeliveredMailList({ messages }: { messages: readonly UndeliveredMail[] }) {
  if (messages.length === 0) return null;
  return (
    <section
      aria-labelledby="undelivered-mail-heading"
      className="card mt-8 overflow-hidden"
      data-testid="undelivered-mail"
    >
      <div className="border-b border-slate-200 p-5">
        <h2 id="undelivered-mail-heading" className="text-lg font-semibold text-slate-900">
          Undelivered mail
        </h2>
        <p className="text-sm text-slate-600">
          Messages that could not be sent after every attempt, newest first. Check SMTP_URL and
          MAIL_FROM.
        </p>
      </div>
      <div className="overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              <HeaderCells
                className="px-5 py-3 font-medium"
                columns={["Failed", "To", "Subject", "Reason"]}
              />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
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
                  {message.reason} ({message.attempts}{" "}
                  {message.attempts === 1 ? "attempt" : "attempts"})
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
