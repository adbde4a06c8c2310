import type { ReactNode } from "react";
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from "@headlessui/react";
import { Link, useNavigate } from "@remix-run/react";
import { useHydrated } from "~/ui/use-hydrated";
import { DialogToastSlot } from "~/ui/toaster";

/**
 * A dialog addressed by the URL (say ?ban=<id>), the frame of every
 * confirmation and detail view. Without JavaScript the server renders it as
 * a plain modal panel (role="dialog") whose Cancel is a link to `closeHref`;
 * once hydrated it is a Headless UI Dialog (focus trap, Escape and backdrop
 * click close it) whose Cancel is a button. `children` gets that Cancel
 * control to place in its own row of buttons.
 */
export function UrlDialog({
  title,
  titleId,
  testId,
  closeHref,
  onClose,
  cancelLabel = "Cancel",
  width = "max-w-lg",
  children,
}: {
  title: ReactNode;
  /** The id of the no-JavaScript panel's heading (its accessible name). */
  titleId: string;
  testId: string;
  /** Where Cancel leads without JavaScript. */
  closeHref: string;
  /** Cancel with JavaScript; by default, going to `closeHref`. */
  onClose?: () => void;
  cancelLabel?: string;
  width?: "max-w-md" | "max-w-lg";
  children: (cancel: ReactNode) => ReactNode;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const close = onClose ?? (() => navigate(closeHref, { preventScrollReset: true }));
  const panelClass = `card w-full ${width} p-6 shadow-xl`;
  const titleClass = "text-lg font-semibold text-slate-900";

  if (!hydrated) {
    return (
      <div className="relative z-50">
        <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
        <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-4">
          <div
            role="dialog"
            aria-modal="true"
            aria-labelledby={titleId}
            className={panelClass}
            data-testid={testId}
          >
            <h2 id={titleId} className={titleClass}>
              {title}
            </h2>
            {children(
              <Link to={closeHref} className="btn-secondary" preventScrollReset>
                {cancelLabel}
              </Link>,
            )}
          </div>
        </div>
      </div>
    );
  }

  return (
    <Dialog open onClose={close} className="fixed inset-0 z-50 overflow-y-auto">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/50" />
      <div className="relative flex min-h-full items-center justify-center p-4">
        <DialogPanel className={panelClass} data-testid={testId}>
          <DialogTitle className={titleClass}>{title}</DialogTitle>
          <DialogToastSlot />
          {children(
            <button type="button" className="btn-secondary" onClick={close}>
              {cancelLabel}
            </button>,
          )}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
