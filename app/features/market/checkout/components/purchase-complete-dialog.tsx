import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import type { ReactNode } from "react";
import { DialogToastSlot } from "~/ui/toaster";

/**
 * The purchase-complete dialog's frame, for a hydrated page. A module of its
 * own so the marketplace loads the dialog library only when a buyer comes
 * back from paying (purchase-complete.tsx loads it lazily).
 */
export function PurchaseCompleteDialog({
  title,
  children,
  onClose,
}: {
  title: string;
  children: ReactNode;
  onClose: () => void;
}) {
  return (
    <Dialog open onClose={onClose} className="relative z-40">
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
          className="card max-h-[90vh] w-full max-w-lg overflow-y-auto p-6"
          data-testid="purchase-complete"
        >
          <DialogTitle className="text-xl font-semibold text-slate-900">{title}</DialogTitle>
          <DialogToastSlot />
          {children}
          <div className="mt-4 flex justify-end">
            <button type="button" className="btn-secondary" onClick={onClose}>
              Close
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
