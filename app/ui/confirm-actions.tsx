import type { ReactNode } from "react";

/**
 * The foot of a confirmation that destroys or takes something: its Cancel (a
 * link or a button, from UrlDialog) and the red submit button, which says
 * `pendingLabel` and is disabled while the form is being sent.
 */
export function ConfirmActions({
  cancel,
  pending,
  label,
  pendingLabel,
  testId,
  className = "mt-6 flex flex-wrap justify-end gap-2",
}: {
  cancel: ReactNode;
  pending: boolean;
  label: ReactNode;
  pendingLabel: string;
  testId?: string;
  className?: string;
}) {
  return (
    <div className={className}>
      {cancel}
      <button
        type="submit"
        className="btn bg-red-600 text-white hover:bg-red-700 disabled:opacity-60"
        disabled={pending}
        data-testid={testId}
      >
        {pending ? pendingLabel : label}
      </button>
    </div>
  );
}
