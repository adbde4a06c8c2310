import type { ReactNode } from "react";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import type { AdminUser } from "~/features/admin/types";
import { BAN_CONSEQUENCES, fullName } from "~/features/admin/types";
import { UrlDialog } from "~/ui/url-dialog";
import { ConfirmActions } from "~/ui/confirm-actions";

/**
 * "Ban <name>?": addressed by the URL (?ban=<id>). Without JavaScript the
 * server renders it as a plain modal panel whose form posts intent=ban and
 * whose Cancel is a link; once hydrated it is a Headless UI Dialog (focus
 * trap, Escape and backdrop click cancel).
 */
export function BanConfirmation({ user, closeHref }: { user: AdminUser; closeHref: string }) {
  return (
    <UrlDialog
      title={
        <>
          Ban <span className="break-all">{fullName(user)}</span>?
        </>
      }
      titleId="ban-title"
      testId="ban-confirmation"
      closeHref={closeHref}
    >
      {(cancel) => <BanForm user={user} cancel={cancel} />}
    </UrlDialog>
  );
}

function BanForm({ user, cancel }: { user: AdminUser; cancel: ReactNode }) {
  const location = useLocation();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "ban";
  return (
    <Form method="post" action={`/admin${location.search}`} preventScrollReset className="mt-4">
      <input type="hidden" name="intent" value="ban" />
      <input type="hidden" name="userId" value={user.id} />
      <p className="truncate text-sm text-slate-600" title={user.email}>
        {user.email}
      </p>
      <p className="mt-3 text-sm text-slate-700">{BAN_CONSEQUENCES}</p>
      <ConfirmActions
        cancel={cancel}
        pending={pending}
        pendingLabel="Banning..."
        label="Ban user"
        testId="confirm-ban"
      />
    </Form>
  );
}
