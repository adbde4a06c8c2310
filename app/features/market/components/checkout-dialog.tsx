import { useRef } from "react";
import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { CheckoutForm } from "~/features/market/components/checkout-form";

/** The checkout dialog (with JavaScript; without it the same form is the /cart page). */
export function CheckoutDialog({
  open,
  onClose,
  itemCount,
  totalCents,
}: {
  open: boolean;
  onClose: () => void;
  itemCount: number;
  totalCents: number;
}) {
  // Focus starts in the Name field (set as the panel mounts, before the dialog moves focus).
  const nameField = useRef<HTMLElement | null>(null);
  return (
    <Dialog open={open} onClose={onClose} className="relative z-40" initialFocus={nameField}>
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
          ref={(panel: HTMLElement | null) => {
            nameField.current = panel?.querySelector<HTMLElement>('input[name="name"]') ?? null;
          }}
          className="card max-h-[90vh] w-full max-w-md overflow-y-auto p-6"
          data-testid="checkout-dialog"
        >
          <DialogTitle className="text-lg font-semibold text-slate-900">Checkout</DialogTitle>
          <p className="mt-1 mb-4 text-sm text-slate-600">Enter your details to pay and receive your download links.</p>
          <CheckoutForm itemCount={itemCount} totalCents={totalCents} onCancel={onClose} />
        </DialogPanel>
      </div>
    </Dialog>
  );
}
