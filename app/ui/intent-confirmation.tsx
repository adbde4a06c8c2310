import type { ReactNode } from "react";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { UrlDialog } from "~/ui/url-dialog";
import { ConfirmActions } from "~/ui/confirm-actions";

/**
 * "<verb> <subject>?", a confirmation addressed by the URL whose form posts
 * `intent` (with the `fields` as hidden inputs) back to `path` with the page's
 * query kept: UrlDialog's frame, the form, `children` between them and the red
 * submit button, which says `button.pendingLabel` while this intent is being
 * sent. Its heading is `<intent>-title`, its test ids `<intent>-confirmation`
 * and `confirm-<intent>`.
 */
export function IntentConfirmation({
  verb,
  subject,
  closeHref,
  path,
  intent,
  fields,
  button,
  children,
}: {
  verb: string;
  subject: ReactNode;
  closeHref: string;
  /** Where the form posts, before the page's query string. */
  path: string;
  intent: string;
  fields: Record<string, string>;
  button: { label: ReactNode; pendingLabel: string };
  children: ReactNode;
}) {
  return (
    <UrlDialog
      title={
        <>
          {`${verb} `}
          <span className="break-all">{subject}</span>?
        </>
      }
      titleId={`${intent}-title`}
      testId={`${intent}-confirmation`}
      closeHref={closeHref}
    >
      {(cancel) => (
        <IntentForm
          cancel={cancel}
          path={path}
          intent={intent}
          fields={fields}
          label={button.label}
          pendingLabel={button.pendingLabel}
        >
          {children}
        </IntentForm>
      )}
    </UrlDialog>
  );
}

function IntentForm({
  cancel,
  path,
  intent,
  fields,
  label,
  pendingLabel,
  children,
}: {
  cancel: ReactNode;
  path: string;
  intent: string;
  fields: Record<string, string>;
  label: ReactNode;
  pendingLabel: string;
  children: ReactNode;
}) {
  const location = useLocation();
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <Form method="post" action={`${path}${location.search}`} preventScrollReset className="mt-4">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      <ConfirmActions
        cancel={cancel}
        pending={pending}
        pendingLabel={pendingLabel}
        label={label}
        testId={`confirm-${intent}`}
      />
    </Form>
  );
}
