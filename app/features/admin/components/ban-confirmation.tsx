import type { AdminUser } from "~/features/admin/types";
import { BAN_CONSEQUENCES, fullName } from "~/features/admin/types";
import { IntentConfirmation } from "~/ui/intent-confirmation";

/**
 * "Ban <name>?": addressed by the URL (?ban=<id>). Without JavaScript the
 * server renders it as a plain modal panel whose form posts intent=ban and
 * whose Cancel is a link; once hydrated it is a Headless UI Dialog (focus
 * trap, Escape and backdrop click cancel).
 */
export function BanConfirmation({ user, closeHref }: { user: AdminUser; closeHref: string }) {
  return (
    <IntentConfirmation
      verb="Ban"
      subject={fullName(user)}
      closeHref={closeHref}
      path="/admin"
      intent="ban"
      fields={{ userId: user.id }}
      button={{ label: "Ban user", pendingLabel: "Banning..." }}
    >
      <p className="truncate text-sm text-slate-600" title={user.email}>
        {user.email}
      </p>
      <p className="mt-3 text-sm text-slate-700">{BAN_CONSEQUENCES}</p>
    </IntentConfirmation>
  );
}
