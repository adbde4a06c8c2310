import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { FieldErrorText, FormErrors, TextField } from "~/ui/form-field";
import { UrlDialog } from "~/ui/url-dialog";
import { ConfirmActions } from "~/ui/confirm-actions";

export const DELETE_ACCOUNT_PATH = "/settings/delete";
const CONFIRM_HREF = `${DELETE_ACCOUNT_PATH}?confirm=1`;

/** What erasing an account does, in the words the Delete account tab and its confirmation show. */
export const ERASURE_CONSEQUENCES = [
  "You are signed out everywhere at once, and your API tokens stop working.",
  "Your listings leave the marketplace at once.",
  "Your uploads, styles, optimized files, previews, mint kits and export packages are deleted, with your integrations, payout account link, consent and settings.",
  "Your name and email are removed; the email can be used to register again.",
] as const;

export const ERASURE_KEPT = [
  "Buyers keep what they paid for: the files they bought stay downloadable to them, and their licenses stand.",
  "Money you are owed is sent to your payout account first when it is active; otherwise it is held for the platform's admin to settle.",
  "The records of your sales and payouts are kept without your name, as bookkeeping law requires.",
  "Backups taken before the deletion still hold your data until they are replaced.",
] as const;

/**
 * The Delete account tab: what happens and what is kept, and a link that
 * opens the confirmation (?confirm=1). Without JavaScript the confirmation is
 * a plain panel rendered by the server; with it, a dialog.
 */
export function DeleteAccountPanel({
  email,
  confirmOpen,
  lastResult,
}: {
  email: string;
  confirmOpen: boolean;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  return (
    <section aria-labelledby="delete-account-title" data-testid="delete-account">
      <h2 id="delete-account-title" className="text-lg font-semibold text-slate-900">
        Delete your account
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        This deletes the account{" "}
        <span className="break-all font-medium text-slate-800">{email}</span>. It cannot be undone.
      </p>
      <Consequences />
      <div className="mt-6">
        <Link
          to={CONFIRM_HREF}
          className="btn bg-red-600 text-white hover:bg-red-700"
          preventScrollReset
          data-testid="open-delete-account"
        >
          Delete my account…
        </Link>
      </div>
      {confirmOpen ? (
        <UrlDialog
          title="Delete your account?"
          titleId="delete-account-confirm-title"
          testId="delete-account-confirmation"
          closeHref={DELETE_ACCOUNT_PATH}
        >
          {(cancel) => <DeleteAccountForm cancel={cancel} lastResult={lastResult} />}
        </UrlDialog>
      ) : null}
    </section>
  );
}

function Consequences() {
  return (
    <div className="mt-4 grid gap-4 sm:grid-cols-2">
      <div>
        <h3 className="text-sm font-semibold text-slate-800">What happens</h3>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-600">
          {ERASURE_CONSEQUENCES.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      <div>
        <h3 className="text-sm font-semibold text-slate-800">What is kept</h3>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-600">
          {ERASURE_KEPT.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function DeleteAccountForm({
  cancel,
  lastResult,
}: {
  cancel: ReactNode;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" &&
    navigation.formAction?.startsWith(DELETE_ACCOUNT_PATH) === true;
  const [form, fields] = useForm<{ password: string; confirm: string }>({
    id: "delete-account",
    lastResult,
    shouldValidate: "onSubmit",
  });
  const confirm = fields.confirm;
  return (
    <Form method="post" action={CONFIRM_HREF} {...getFormProps(form)} className="mt-4 space-y-4">
      <FormErrors errors={form.errors} id={form.errorId} />
      <p className="text-sm text-slate-700">
        Your account and everything listed on this page go for good. Enter your password to confirm.
      </p>
      <TextField
        field={fields.password}
        label="Password"
        type="password"
        autoComplete="current-password"
      />
      <div>
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input
            {...getInputProps(confirm, { type: "checkbox", ariaAttributes: true })}
            key={confirm.key}
            className="choice-input"
          />
          <span>
            I understand that my account and my files will be deleted and that this cannot be
            undone.
          </span>
        </label>
        <FieldErrorText field={confirm} />
      </div>
      <ConfirmActions
        cancel={cancel}
        pending={pending}
        pendingLabel="Deleting..."
        label="Delete my account"
        testId="confirm-delete-account"
        className="flex flex-wrap justify-end gap-2"
      />
    </Form>
  );
}
