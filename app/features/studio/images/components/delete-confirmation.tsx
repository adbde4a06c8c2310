import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useHydrated } from "~/ui/use-hydrated";
import { UrlDialog } from "~/ui/url-dialog";
import { ConfirmActions } from "~/ui/confirm-actions";
import { hrefWithQuery } from "~/lib/query-href";

/** The query parameter that opens a delete confirmation without JavaScript (?confirmDelete=<id>). */
export const CONFIRM_DELETE_PARAM = "confirmDelete";

/** `search` (e.g. location.search) with ?confirmDelete= set to `id`, or removed when `id` is null. */
export function confirmDeleteHref(search: string, id: string | null): string {
  return hrefWithQuery("/dashboard", search, { [CONFIRM_DELETE_PARAM]: id });
}

/**
 * The Delete control that opens the confirmation: a button once hydrated
 * (`onOpen`), else a link to the same dashboard with ?confirmDelete=<id>.
 */
export function DeleteTrigger({
  id,
  search,
  label,
  className,
  onOpen,
}: {
  id: string;
  /** The dashboard's current query (location.search). */
  search: string;
  /** The accessible name, e.g. "Delete the Anime image". */
  label: string;
  className: string;
  onOpen: (id: string) => void;
}) {
  const hydrated = useHydrated();
  return hydrated ? (
    <button type="button" className={className} aria-label={label} onClick={() => onOpen(id)}>
      Delete
    </button>
  ) : (
    <Link
      to={confirmDeleteHref(search, id)}
      preventScrollReset
      className={className}
      aria-label={label}
    >
      Delete
    </Link>
  );
}

/**
 * "Delete this …?": the dashboard's one delete confirmation (a stylized image
 * in the grid, an upload in the strip). Without JavaScript the server renders
 * it as a plain modal panel whose form posts the delete intent and whose
 * Cancel is a link (closeHref); once hydrated it is a dialog whose Cancel,
 * Escape and backdrop click go through onClose (app/ui/url-dialog.tsx).
 */
export function DeleteConfirmation({
  title,
  consequences,
  intent,
  id,
  back,
  closeHref,
  onClose,
}: {
  title: string;
  consequences: ReactNode;
  intent: "delete-stylized" | "delete-image";
  id: string;
  /** The dashboard address to return to after the delete. */
  back?: string;
  /** Where Cancel goes without JavaScript. */
  closeHref: string;
  /** Cancel with JavaScript. */
  onClose: () => void;
}) {
  return (
    <UrlDialog
      title={title}
      titleId="delete-confirmation-title"
      testId="delete-confirmation"
      closeHref={closeHref}
      onClose={onClose}
    >
      {(cancel) => (
        <DeleteForm
          intent={intent}
          id={id}
          back={back}
          consequences={consequences}
          cancel={cancel}
        />
      )}
    </UrlDialog>
  );
}

function DeleteForm({
  intent,
  id,
  back,
  consequences,
  cancel,
}: {
  intent: string;
  id: string;
  back?: string;
  consequences: ReactNode;
  cancel: ReactNode;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData?.get("id") === id;
  return (
    <Form method="post" action="/dashboard" preventScrollReset className="mt-4">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {back ? <input type="hidden" name="back" value={back} /> : null}
      <div className="text-sm text-slate-700">{consequences}</div>
      <ConfirmActions cancel={cancel} pending={pending} pendingLabel="Deleting..." label="Delete" />
    </Form>
  );
}
