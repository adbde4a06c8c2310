import { IntentConfirmation } from "~/ui/intent-confirmation";

/** What the admin's confirmation says an erasure does. */
export const ADMIN_ERASURE_CONSEQUENCES =
  "Their sessions and tokens end and their listings leave the marketplace at once; then their files that no buyer paid for, their integrations, payout account link and personal data are deleted. Buyers keep what they bought; money owed is sent first or held for you. This cannot be undone.";

/**
 * "Erase <email>?": addressed by the URL (?erase=<id>). Without JavaScript
 * the server renders it as a plain panel whose form posts intent=erase-user;
 * with it, a dialog.
 */
export function EraseUserConfirmation({
  user,
  closeHref,
}: {
  user: { id: string; email: string };
  closeHref: string;
}) {
  return (
    <IntentConfirmation
      verb="Erase"
      subject={user.email}
      closeHref={closeHref}
      path="/admin"
      intent="erase-user"
      fields={{ userId: user.id }}
      button={{ label: "Erase account", pendingLabel: "Erasing..." }}
    >
      <p className="text-sm text-slate-700">{ADMIN_ERASURE_CONSEQUENCES}</p>
    </IntentConfirmation>
  );
}
