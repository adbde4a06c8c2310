import { Form } from "@remix-run/react";
import { CartButton } from "~/features/market/checkout/components/cart-button";

/**
 * Add to cart and Buy now side by side (stacked on a phone), for one cart
 * entry (a listing, or a bundle's entry). Buy now is the cart's own add form,
 * then straight on to the cart's checkout page, so it works without JavaScript.
 */
export function BuyButtons({
  entry,
  title,
  inCart,
  redirectTo,
  anchor,
}: {
  entry: string;
  title: string;
  inCart: boolean;
  redirectTo: string;
  /** Without JavaScript, Add to cart brings the page back scrolled to this element id. */
  anchor: string;
}) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <div className="sm:flex-1">
        <CartButton
          listingId={entry}
          title={title}
          inCart={inCart}
          redirectTo={redirectTo}
          anchor={anchor}
        />
      </div>
      <Form method="post" action="/cart" className="sm:flex-1" reloadDocument>
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="listingId" value={entry} />
        <input type="hidden" name="redirectTo" value="/cart" />
        <button type="submit" className="btn-secondary w-full" data-testid="buy-now">
          Buy now<span className="sr-only">: {title}</span>
        </button>
      </Form>
    </div>
  );
}
