import { Link, useFetcher, useSearchParams } from "@remix-run/react";
import { ADDED_PARAM } from "~/lib/back-to-item";
import { ListingFormFields } from "~/features/market/catalog/components/listing-form-fields";

/** What POST /cart answers a fetcher (enhanced=1). */
interface CartReply {
  ok: boolean;
  count: number;
  /** The listing went in with this post. */
  added?: boolean;
  message: string | null;
}

/**
 * Add to or remove from the cart: a real form posting to /cart, so it works
 * without JavaScript (the action redirects back to `redirectTo`). With
 * JavaScript it posts through a fetcher and the page shows the change at once.
 * The button's name is its visible label followed by the image's title in
 * visually hidden text ("Add to Cart: Neon Dream"), so a voice user who says
 * what they see reaches it and a screen reader user hears which image it is.
 *
 * After an add, "Added — View cart" shows under the button (not for the
 * cart's own compact rows): with JavaScript from the fetcher's answer, without
 * it from the page's address, which the action gives `?added=<id>` and the
 * item's anchor so the page comes back scrolled to the item.
 */
export function CartButton({
  listingId,
  title,
  inCart,
  redirectTo,
  anchor,
  compact = false,
}: {
  listingId: string;
  title: string;
  inCart: boolean;
  redirectTo: string;
  /** Without JavaScript, the page comes back scrolled to this element id (the listing's card). */
  anchor?: string;
  /** A small "Remove" for the cart's rows. */
  compact?: boolean;
}) {
  const fetcher = useFetcher<CartReply>({ key: `cart-${listingId}` });
  const [searchParams] = useSearchParams();
  const pendingIntent = fetcher.formData?.get("intent");
  const showInCart = pendingIntent === "add" ? true : pendingIntent === "remove" ? false : inCart;
  const reply = fetcher.state === "idle" ? fetcher.data : undefined;
  // The fetcher's answer once there is one; before it, what the address says (a no-JavaScript add).
  const added =
    !compact &&
    showInCart &&
    (fetcher.data !== undefined
      ? reply?.added === true
      : searchParams.get(ADDED_PARAM) === listingId);
  const refusal = reply && !reply.ok ? reply.message : null;
  return (
    <fetcher.Form method="post" action="/cart">
      <ListingFormFields listingId={listingId} redirectTo={redirectTo} anchor={anchor} />
      {showInCart ? (
        <button
          type="submit"
          name="intent"
          value="remove"
          className={compact ? "btn-ghost px-2 py-1 text-sm" : "btn-secondary w-full"}
          data-testid="remove-from-cart"
        >
          {compact ? "Remove" : "Remove from Cart"}
          <span className="sr-only">: {title}</span>
        </button>
      ) : (
        <button
          type="submit"
          name="intent"
          value="add"
          className="btn-primary w-full"
          data-testid="add-to-cart"
        >
          Add to Cart
          <span className="sr-only">: {title}</span>
        </button>
      )}
      {compact ? null : (
        // Always in the page, so a screen reader hears what comes into it.
        <div role="status" className="text-sm">
          {added ? (
            <p className="mt-2 text-emerald-800" data-testid="added-to-cart">
              Added —{" "}
              <Link to="/cart" className="font-medium text-brand-700 underline">
                View cart
              </Link>
            </p>
          ) : null}
          {refusal ? (
            <p className="mt-2 text-red-700" data-testid="cart-refusal">
              {refusal}
            </p>
          ) : null}
        </div>
      )}
    </fetcher.Form>
  );
}
