import { useRef } from "react";
import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { CheckoutForm } from "~/features/market/checkout/components/checkout-form";
import { PreviewThumbnail } from "~/features/market/catalog/components/preview-thumbnail";
import { formatMoney } from "~/lib/money";
import { useCurrency } from "~/ui/currency";
import { DialogToastSlot } from "~/ui/toaster";

/** What the dialog lists of each image being bought. */
export interface CheckoutLine {
  id: string;
  title: string;
  priceCents: number;
  previewUrl: string;
}

/** The checkout dialog (with JavaScript; without it the same form is the /cart page). */
export function CheckoutDialog({
  open,
  onClose,
  items,
  totalCents,
}: {
  open: boolean;
  onClose: () => void;
  /** The images being bought, shown above the form so the buyer sees what they pay for. */
  items: CheckoutLine[];
  totalCents: number;
}) {
  // Focus starts in the Name field (set as the panel mounts, before the dialog moves focus).
  const nameField = useRef<HTMLElement | null>(null);
  const currency = useCurrency();
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
          <DialogToastSlot />
          <p className="mt-1 mb-4 text-sm text-slate-600">
            Enter your details to pay and receive your download links.
          </p>
          <ul
            className="mb-4 space-y-2"
            aria-label="Images in this order"
            data-testid="checkout-lines"
          >
            {items.map((item) => (
              <li key={item.id} className="flex items-center gap-3">
                <PreviewThumbnail src={item.previewUrl} size={48} />
                <span className="min-w-0 flex-1 text-sm font-medium wrap-anywhere text-slate-900">
                  {item.title}
                </span>
                <span className="shrink-0 text-sm font-semibold text-slate-900">
                  {formatMoney(item.priceCents, currency)}
                </span>
              </li>
            ))}
          </ul>
          <CheckoutForm itemCount={items.length} totalCents={totalCents} onCancel={onClose} />
        </DialogPanel>
      </div>
    </Dialog>
  );
}
