import { useFetcher } from "@remix-run/react";
import { useHydrated } from "~/ui/use-hydrated";

/**
 * Add to or remove from the cart: a real form posting to /cart, so it works
 * without JavaScript (the action redirects back to `redirectTo`). With
 * JavaScript it posts through a fetcher and the page shows the change at once.
 * The button's name is its visible label followed by the image's title in
 * visually hidden text ("Add to Cart: Neon Dream"), so a voice user who says
 * what they see reaches it and a screen reader user hears which image it is.
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
  const fetcher = useFetcher({ key: `cart-${listingId}` });
  const hydrated = useHydrated();
  const pendingIntent = fetcher.formData?.get("intent");
  const showInCart = pendingIntent === "add" ? true : pendingIntent === "remove" ? false : inCart;
  return (
    <fetcher.Form method="post" action="/cart">
      <input type="hidden" name="listingId" value={listingId} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {anchor ? <input type="hidden" name="anchor" value={anchor} /> : null}
      {hydrated ? <input type="hidden" name="enhanced" value="1" /> : null}
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
    </fetcher.Form>
  );
}
