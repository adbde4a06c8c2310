import { lazy, Suspense, useState } from "react";
import { Link } from "@remix-run/react";
import { formatMoney } from "~/lib/money";
import { useCurrency } from "~/ui/currency";
import { CartLines } from "~/features/market/checkout/components/cart-lines";
import { PixelSize } from "~/features/market/catalog/components/pixel-size";
import { StyleBadge } from "~/features/market/catalog/components/style-badge";
import { useHydrated } from "~/ui/use-hydrated";
import { LICENSES, type LicenseType } from "~/lib/license-terms";

/** The checkout dialog's code (a dialog and form library) arrives when a buyer heads for Checkout, not with the page. */
const loadCheckoutDialog = () => import("~/features/market/checkout/components/checkout-dialog");
const CheckoutDialog = lazy(() =>
  loadCheckoutDialog().then((module) => ({ default: module.CheckoutDialog })),
);

export interface CartPanelItem {
  id: string;
  title: string;
  style: string;
  priceCents: number;
  previewUrl: string;
  /** The pixel size of the file a buyer gets, when known. */
  width?: number | null;
  height?: number | null;
  /** A bundle's line: how many images it holds. */
  bundle?: { itemCount: number } | null;
  /** A listing's own id (the line's id is its cart entry, which may name a tier). */
  listingId?: string | null;
  /** The licence tier of a listing's line (decision 101). */
  licenseType?: LicenseType;
}

/**
 * The cart: its images, the total and Checkout. Checkout opens the dialog with
 * JavaScript; without it, it is a link to the /cart page with the same form.
 */
export function CartPanel({ items, redirectTo }: { items: CartPanelItem[]; redirectTo: string }) {
  const hydrated = useHydrated();
  const currency = useCurrency();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const total = items.reduce((sum, item) => sum + item.priceCents, 0);
  return (
    <aside
      id="cart"
      className="card min-w-0 scroll-mt-24 p-4"
      aria-labelledby="cart-heading"
      data-testid="cart"
    >
      <h2
        id="cart-heading"
        className="flex items-center justify-between text-lg font-semibold text-slate-900"
      >
        <span>Cart</span>
        <span
          className="rounded-full bg-brand-50 px-2 py-0.5 text-sm text-brand-700"
          data-testid="cart-count"
        >
          {items.length} {items.length === 1 ? "item" : "items"}
        </span>
      </h2>
      {items.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">
          Your cart is empty. Add an image to buy its full-resolution file and license.
        </p>
      ) : (
        <>
          <CartLines
            items={items}
            lineClassName="flex items-start gap-3 py-3"
            thumbnailSize={48}
            redirectTo={redirectTo}
            details={(item) => (
              <>
                <p className="text-sm font-medium wrap-anywhere text-slate-900">{item.title}</p>
                <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600">
                  <StyleBadge style={item.style} />
                  <span className="font-semibold text-slate-900" data-testid="cart-line-price">
                    {formatMoney(item.priceCents, currency)}
                  </span>
                  {item.bundle ? (
                    <span>Bundle of {item.bundle.itemCount} images</span>
                  ) : (
                    <>
                      <span data-testid="cart-line-license">
                        {LICENSES[item.licenseType ?? "standard"].tier} license
                      </span>
                      <PixelSize width={item.width} height={item.height} />
                    </>
                  )}
                </div>
              </>
            )}
          />
          <div className="mt-3 flex items-center justify-between border-t border-slate-200 pt-3">
            <span className="text-sm text-slate-600">Total</span>
            <span className="text-lg font-bold text-slate-900" data-testid="cart-total">
              {formatMoney(total, currency)}
            </span>
          </div>
          <Link
            to="/cart"
            className="btn-primary mt-3 w-full"
            data-testid="checkout-button"
            onPointerEnter={() => void loadCheckoutDialog()}
            onFocus={() => void loadCheckoutDialog()}
            onClick={(event) => {
              if (!hydrated) return;
              event.preventDefault();
              setWanted(true);
              setOpen(true);
            }}
          >
            Checkout
          </Link>
          {wanted ? (
            <Suspense fallback={null}>
              <CheckoutDialog
                open={open}
                onClose={() => setOpen(false)}
                items={items}
                totalCents={total}
              />
            </Suspense>
          ) : null}
        </>
      )}
    </aside>
  );
}
