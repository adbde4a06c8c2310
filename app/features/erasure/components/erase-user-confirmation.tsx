import type { ReactNode } from "react";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { UrlDialog } from "~/ui/url-dialog";
import { ConfirmActions } from "~/ui/confirm-actions";

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
    <UrlDialog
      title={
        <>
          Erase <span className="break-all">{user.email}</span>?
        </>
      }
      titleId="erase-user-title"
      testId="erase-user-confirmation"
      closeHref={closeHref}
    >
      {(cancel) => <EraseUserForm user={user} cancel={cancel} />}
    </UrlDialog>
  );
}

function EraseUserForm({ user, cancel }: { user: { id: string }; cancel: ReactNode }) {
  const location = useLocation();
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "erase-user";
  return (
    <Form method="post" action={`/admin${location.search}`} preventScrollReset className="mt-4">
      <input type="hidden" name="intent" value="erase-user" />
      <input type="hidden" name="userId" value={user.id} />
      <p className="text-sm text-slate-700">{ADMIN_ERASURE_CONSEQUENCES}</p>
      <ConfirmActions
        cancel={cancel}
        pending={pending}
        pendingLabel="Erasing..."
        label="Erase account"
        testId="confirm-erase-user"
      />
    </Form>
  );
}
