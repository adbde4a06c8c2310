import { Form } from "@remix-run/react";
import { LocalDate } from "~/features/admin/components/local-date";
import { SectionCard } from "~/ui/data-table";

/** One waitlist request as the admin sees it (the accounts feature's adminWaitlist). */
export interface WaitlistRowView {
  id: string;
  email: string;
  joinedAt: string;
  state: "waiting" | "invited" | "expired" | "joined" | "has-account";
  invitedAt: string | null;
  inviteExpiresAt: string | null;
}

const STATE_TEXT: Record<WaitlistRowView["state"], string> = {
  waiting: "Waiting",
  invited: "Invited",
  expired: "Invitation expired",
  joined: "Joined",
  "has-account": "Has an account",
};

/**
 * The beta's waitlist: who asked, oldest first, and Invite (a plain form post)
 * for each address that may still be invited. With BETA_SPOTS set, the spots
 * left head the list and Invite is refused once none are.
 */
export function WaitlistSection({
  entries,
  spots,
}: {
  entries: readonly WaitlistRowView[];
  spots: { total: number; left: number } | null;
}) {
  return (
    <SectionCard
      id="waitlist"
      headingId="waitlist-heading"
      heading="Waitlist"
      description={
        <p className="text-sm text-slate-600" data-testid="waitlist-summary">
          {entries.length} {entries.length === 1 ? "request" : "requests"}, oldest first. An
          invitation mails a link that opens registration for that address only, once, within 7
          days.
          {spots
            ? ` Beta spots left: ${spots.left} of ${spots.total}.`
            : " BETA_SPOTS is not set: invitations are not counted."}
        </p>
      }
      className="card mt-8 scroll-mt-24 overflow-hidden"
      testId="admin-waitlist"
    >
      {entries.length === 0 ? (
        <p className="p-5 text-sm text-slate-600">Nobody has joined the waitlist yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {entries.map((entry) => (
            <li
              key={entry.id}
              className="flex flex-col gap-2 p-5 sm:flex-row sm:items-center sm:justify-between"
              data-testid="waitlist-entry"
            >
              <div className="min-w-0">
                <p className="font-medium wrap-anywhere text-slate-900">{entry.email}</p>
                <p className="text-sm text-slate-600">
                  Asked <LocalDate iso={entry.joinedAt} /> ·{" "}
                  <span data-testid="waitlist-state">{STATE_TEXT[entry.state]}</span>
                  {entry.state === "invited" ? (
                    <>
                      {" "}
                      until <LocalDate iso={entry.inviteExpiresAt} />
                    </>
                  ) : null}
                </p>
              </div>
              {entry.state === "waiting" ||
              entry.state === "invited" ||
              entry.state === "expired" ? (
                <Form method="post" action="/admin">
                  <input type="hidden" name="intent" value="invite-waitlist" />
                  <input type="hidden" name="entryId" value={entry.id} />
                  <button
                    type="submit"
                    className={entry.state === "waiting" ? "btn-primary" : "btn-secondary"}
                    aria-label={`${entry.state === "waiting" ? "Invite" : "Invite again"} ${entry.email}`}
                  >
                    {entry.state === "waiting" ? "Invite" : "Invite again"}
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
