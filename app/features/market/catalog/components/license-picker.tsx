import { Form, Link } from "@remix-run/react";
import { LICENSES, type LicenseType } from "~/lib/license-terms";
import { formatAmount } from "~/lib/money";

/**
 * The listing page's buy box when a listing offers more than the Standard
 * licence (decision 101): a plain form posting to /cart, so it works without
 * JavaScript. The buyer picks a tier (each with its price and what it allows)
 * and adds it to the cart, or buys it now (the same add, then the cart's
 * checkout page). A listing already in the cart is added again with the tier
 * picked, replacing its entry.
 */
export function LicensePicker({
  listingId,
  title,
  licenses,
  inCartLicense,
  redirectTo,
  anchor,
  currency,
}: {
  listingId: string;
  title: string;
  licenses: { type: LicenseType; price: string }[];
  /** The tier this listing is in the cart with, if it is. */
  inCartLicense: LicenseType | null;
  redirectTo: string;
  anchor: string;
  currency: string;
}) {
  const picked = inCartLicense ?? "standard";
  return (
    <Form method="post" action="/cart" reloadDocument data-testid="license-picker">
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="listingId" value={listingId} />
      <fieldset className="space-y-2">
        <legend className="mb-2 font-semibold text-slate-900">Choose a license</legend>
        {licenses.map((license) => (
          <label
            key={license.type}
            className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
          >
            <input
              type="radio"
              name="licenseType"
              value={license.type}
              defaultChecked={license.type === picked}
              className="choice-input mt-1"
              data-testid={`license-option-${license.type}`}
            />
            <span className="min-w-0">
              <span className="flex flex-wrap items-baseline gap-x-2">
                <span className="font-medium text-slate-900">
                  {LICENSES[license.type].tier} license
                </span>
                <span className="font-semibold text-slate-900" data-testid="license-option-price">
                  {formatAmount(Number(license.price), currency)}
                </span>
              </span>
              <span className="block text-sm text-slate-700">{LICENSES[license.type].summary}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <button
          type="submit"
          name="redirectTo"
          // Back to the buy box (#anchor) with the cart's new state.
          value={`${redirectTo}#${anchor}`}
          className="btn-primary sm:flex-1"
          data-testid="add-to-cart"
        >
          {inCartLicense ? "Update cart" : "Add to Cart"}
          <span className="sr-only">: {title}</span>
        </button>
        <button
          type="submit"
          name="redirectTo"
          value="/cart"
          className="btn-secondary sm:flex-1"
          data-testid="buy-now"
        >
          Buy now<span className="sr-only">: {title}</span>
        </button>
      </div>
      <div role="status" className="text-sm">
        {inCartLicense ? (
          <p className="mt-2 text-emerald-800" data-testid="in-cart-license">
            In your cart: {LICENSES[inCartLicense].tier} license —{" "}
            <Link to="/cart" className="font-medium text-brand-700 underline">
              View cart
            </Link>
          </p>
        ) : null}
      </div>
    </Form>
  );
}
