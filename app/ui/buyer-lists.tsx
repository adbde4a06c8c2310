import { createContext, useContext, useMemo } from "react";
import type { ReactNode } from "react";
import { useFetchers } from "@remix-run/react";
import { MAX_CART_ITEMS, MAX_SAVED_LISTINGS } from "~/lib/limits";

/**
 * What this browser holds as a buyer: the listings in its cart and those it
 * saved (ids only, read from their cookies by the root loader). The header
 * counts them and a Save button knows whether its listing is saved. With
 * JavaScript, a cart or save form still in flight counts already (each form
 * posts `intent` and `listingId` through a fetcher); once it lands, the root
 * loader's fresh lists take over.
 */
export interface BuyerLists {
  cart: ReadonlySet<string>;
  saved: ReadonlySet<string>;
}

const NONE: BuyerLists = { cart: new Set(), saved: new Set() };
const BuyerListsContext = createContext<BuyerLists>(NONE);

/** The buyer's lists; without a provider (a component rendered alone) both are empty. */
export const useBuyerLists = () => useContext(BuyerListsContext);

/** The forms that change each list: where they post, and the intents that add and remove. */
export const LIST_FORMS = {
  cart: { action: "/cart", add: "add", remove: "remove", max: MAX_CART_ITEMS },
  saved: { action: "/saved", add: "save", remove: "remove", max: MAX_SAVED_LISTINGS },
} as const;

type Fetchers = ReturnType<typeof useFetchers>;

/** A list as it will be once the forms in flight that change it have landed. */
function pending(
  base: readonly string[],
  fetchers: Fetchers,
  form: (typeof LIST_FORMS)[keyof typeof LIST_FORMS],
): ReadonlySet<string> {
  const ids = new Set(base);
  for (const fetcher of fetchers) {
    if (!fetcher.formData || fetcher.formAction?.split("?")[0] !== form.action) continue;
    const intent = fetcher.formData.get("intent");
    const id = String(fetcher.formData.get("listingId") ?? "");
    if (intent === form.remove) ids.delete(id);
    else if (intent === form.add && ids.size < form.max) ids.add(id);
  }
  return ids;
}

export function BuyerListsProvider({
  cart,
  saved,
  children,
}: {
  cart: readonly string[];
  saved: readonly string[];
  children: ReactNode;
}) {
  const fetchers = useFetchers();
  const value = useMemo(
    () => ({
      cart: pending(cart, fetchers, LIST_FORMS.cart),
      saved: pending(saved, fetchers, LIST_FORMS.saved),
    }),
    [cart, saved, fetchers],
  );
  return <BuyerListsContext.Provider value={value}>{children}</BuyerListsContext.Provider>;
}
